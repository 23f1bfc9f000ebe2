// Topics for client agents: subscriptions through the FIPA agent topics@<platform>, publishing by
// sending to the topic's AID (see docs/agents.md, "Topics").
import { askPlatformAgent } from './platform-agent.js';

/** What a topic's AID's name starts with. */
const TOPIC_PREFIX = 'topic:';

export class Topics {
  #agent;

  /** @param {import('./agent.js').Agent} agent the agent that subscribes and publishes */
  constructor(agent) {
    this.#agent = agent;
  }

  /** The AID of topic `name` on this agent's platform: `topic:<name>@<platform>`. */
  aid(name) {
    if (typeof name !== 'string' || name === '') throw new TypeError('a topic needs a name');
    return `${TOPIC_PREFIX}${name}@${this.#agent.aid.slice(this.#agent.aid.indexOf('@') + 1)}`;
  }

  /**
   * Subscribes this agent to `topic`: each message sent to it then reaches onMessage, its
   * receivers naming the topic. In a `group`, the group's members share the messages (one of
   * them gets each); subscribing again moves the subscription to the new group. Resolves once
   * every node has the subscription.
   * @param {string} topic
   * @param {{group?: string}} [options]
   */
  async subscribe(topic, { group } = {}) {
    await askPlatformAgent(this.#agent, 'topics', 'siebog-topics', { action: 'subscribe', topic, group });
  }

  /** Ends this agent's subscription to `topic` (404 when it has none). */
  async unsubscribe(topic) {
    await askPlatformAgent(this.#agent, 'topics', 'siebog-topics', { action: 'unsubscribe', topic });
  }

  /** @returns {Promise<{topic: string, group?: string}[]>} this agent's subscriptions, by topic */
  async subscriptions() {
    return (await askPlatformAgent(this.#agent, 'topics', 'siebog-topics', { action: 'subscriptions' })).subscriptions;
  }

  /**
   * Sends `msg` to every subscriber of `topic` (and to its own receivers, if any); resolves once
   * admitted, as send does.
   */
  publish(topic, msg) {
    return this.#agent.send({ ...msg, receivers: [this.aid(topic), ...(msg.receivers ?? [])] });
  }
}
