// Uses topics (this.topics) on command, for e2e/topics.test.js. A REQUEST's content is
// {"do": "subscribe" | "unsubscribe" | "subscriptions" | "publish" | "heard", "topic"?, "group"?, "count"?};
// "publish" sends INFORMs numbered 1..count to the topic, in conversation "from-<its name>". The
// answer is an INFORM with the result as JSON, or a FAILURE {"status", "message"}.
import { Agent } from '/siebog/js/agent.js';

export default class News extends Agent {
  onStart() {
    this.heard = []; // what reached it through topics, as "topic content"
  }

  async onMessage(msg) {
    const topic = msg.receivers.find((r) => r.startsWith('topic:'));
    if (topic) {
      this.heard.push(`${topic.slice('topic:'.length, topic.indexOf('@'))} ${msg.content}`);
      return;
    }
    if (msg.performative !== 'REQUEST') return;
    try {
      const result = await this.act(JSON.parse(msg.content));
      await this.reply(msg, 'INFORM', JSON.stringify(result ?? null));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status ?? null, message: e.message }));
    }
  }

  async act({ do: action, topic, group, count }) {
    switch (action) {
      case 'subscribe': return this.topics.subscribe(topic, { group });
      case 'unsubscribe': return this.topics.unsubscribe(topic);
      case 'subscriptions': return this.topics.subscriptions();
      case 'publish':
        for (let i = 1; i <= count; i++) {
          await this.topics.publish(topic, { performative: 'INFORM', conversationId: `from-${this.aid}`, content: String(i) });
        }
        return count;
      case 'heard': return this.heard;
      default: throw new Error(`unknown order ${action}`);
    }
  }
}
