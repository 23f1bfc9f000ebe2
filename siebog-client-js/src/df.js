// The directory facilitator for client agents: the actions of the FIPA agent df@<platform>, each
// asked with Agent#ask (see docs/agents.md, "Directory facilitator", for the messages themselves).
import { askPlatformAgent } from './platform-agent.js';

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

  #act(action) {
    return askPlatformAgent(this.#agent, 'df', 'siebog-df', action);
  }

}
