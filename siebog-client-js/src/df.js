// The directory facilitator for client agents: the actions of the FIPA agent df@<platform>, each
// asked with Agent#ask (see docs/agents.md, "Directory facilitator", for the messages themselves).
import { SiebogError } from './session.js';

/** How long an action waits for df: writes reach every node first, which takes milliseconds. */
const DF_TIMEOUT_MS = 10_000;

export class DirectoryFacilitator {
  #agent;

  /** @param {import('./agent.js').Agent} agent the agent that acts (and registers itself) */
  constructor(agent) {
    this.#agent = agent;
  }

  /**
   * Registers `service` ({type, name, protocols?, ontologies?, languages?, properties?}) for this
   * agent, replacing its service of the same name; resolves with the entry once every node has it.
   * @param {object} service
   * @param {{leaseMs?: number}} [options] without leaseMs the entry holds until the agent stops
   */
  async register(service, { leaseMs } = {}) {
    return (await this.#act({ action: 'register', service, leaseMs })).entry;
  }

  /** As register, but only when this agent has a service of that name (404 otherwise). */
  async modify(service, { leaseMs } = {}) {
    return (await this.#act({ action: 'modify', service, leaseMs })).entry;
  }

  /** Removes this agent's service called `name` (404 when it has none). */
  async deregister(name) {
    await this.#act({ action: 'deregister', name });
  }

  /**
   * The entries that match `template` (every field optional), `limit` of them (default 100, at
   * most 1,000) in agent then service-name order, after the entry `after` (the last of the
   * previous page); `more` says whether another page follows.
   * @returns {Promise<{entries: object[], more: boolean}>}
   */
  async search(template = {}, { limit, after } = {}) {
    const { entries, more } = await this.#act({ action: 'search', template, limit, after });
    return { entries, more };
  }

  /**
   * Subscribes this agent to the changes of the services that match `template`: each arrives in
   * onMessage as an INFORM from df whose conversationId is the id this resolves with (protocol
   * 'fipa-subscribe'), content {"change": "registered" | "modified" | "deregistered" | "expired", "entry"}.
   * @param {object} [template]
   * @param {{leaseMs?: number}} [options] without leaseMs it holds until the agent stops
   * @returns {Promise<string>}
   */
  async subscribe(template = {}, { leaseMs } = {}) {
    return (await this.#act({ action: 'subscribe', template, leaseMs })).subscription;
  }

  /** Ends a subscription (404 when there is none of that id). */
  async unsubscribe(subscription) {
    await this.#act({ action: 'unsubscribe', subscription });
  }

  async #act(action) {
    const platform = this.#agent.aid.slice(this.#agent.aid.indexOf('@') + 1);
    const answer = await this.#agent.ask({
      performative: 'REQUEST', receivers: [`df@${platform}`], language: 'json', ontology: 'siebog-df', content: JSON.stringify(action),
    }, { timeoutMs: DF_TIMEOUT_MS });
    let content;
    try {
      content = JSON.parse(answer.content);
    } catch {
      throw new SiebogError(502, `df answered ${answer.performative} with content that is not JSON: ${String(answer.content).slice(0, 200)}`);
    }
    if (answer.performative === 'INFORM') return content;
    throw new SiebogError(content.status ?? 502, content.error ?? `df answered ${answer.performative}`);
  }
}
