// The tuple space for client agents: the actions of the FIPA agent tuples@<platform>, each asked
// with Agent#ask (see docs/agents.md, "Tuple space").
import { askPlatformAgent } from './platform-agent.js';

/** How much longer than a wait the question to tuples waits, for its answer to travel. */
const MARGIN_MS = 10_000;

export class TupleSpace {
  #agent;

  /** @param {import('./agent.js').Agent} agent the agent that reads, takes and writes */
  constructor(agent) {
    this.#agent = agent;
  }

  /**
   * Writes a tuple (1 to 16 strings); resolves once every node has it.
   * @param {string[]} fields
   * @param {{leaseMs?: number}} [options] without leaseMs it stays until taken
   */
  async out(fields, { leaseMs } = {}) {
    await this.#act({ action: 'out', fields, leaseMs });
  }

  /** A tuple that matches `template` now (null fields match anything), left in the space; null when none. */
  async rdp(template) {
    return (await this.#act({ action: 'rdp', template })).tuple;
  }

  /** Takes a tuple that matches `template` now; null when none. */
  async inp(template) {
    return (await this.#act({ action: 'inp', template })).tuple;
  }

  /** Reads a tuple that matches `template`, waiting up to timeoutMs for one; null when none came. */
  async rd(template, { timeoutMs = 30_000 } = {}) {
    return (await this.#act({ action: 'rd', template, timeoutMs }, timeoutMs + MARGIN_MS)).tuple;
  }

  /** Takes a tuple that matches `template`, waiting up to timeoutMs for one; null when none came. */
  async in(template, { timeoutMs = 30_000 } = {}) {
    return (await this.#act({ action: 'in', template, timeoutMs }, timeoutMs + MARGIN_MS)).tuple;
  }

  #act(action, timeoutMs) {
    return askPlatformAgent(this.#agent, 'tuples', 'siebog-tuples', action, timeoutMs);
  }
}
