// Passes a request on and the answer back, for tests of every message path (server ↔ client,
// client ↔ client on one device or across devices). A REQUEST with content
// {"to": "<aid>", "content": "<string>"} is sent on to `to` as a REQUEST from this agent; the first
// answer to it goes back to the original asker as an INFORM with content
// {"via": "<this aid>", "from": "<who answered>", "content": "<their content>"}.
// Relays chain: `content` may itself be {"to": …, "content": …} for a next Relay.
import { Agent } from '/siebog/js/agent.js';

export default class Relay extends Agent {
  onStart() {
    this.pending = new Map(); // conversationId of the forwarded request → the request it came from
    this.next = 0;
  }

  async onMessage(msg) {
    const asked = msg.conversationId !== null && this.pending.get(msg.conversationId);
    if (asked) {
      this.pending.delete(msg.conversationId);
      await this.reply(asked, 'INFORM', JSON.stringify({ via: this.aid, from: msg.sender, content: msg.content }));
      return;
    }
    if (msg.performative !== 'REQUEST') return;
    const { to, content } = JSON.parse(msg.content);
    const conversationId = `${this.aid}#${++this.next}`;
    this.pending.set(conversationId, msg);
    await this.send({ performative: 'REQUEST', receivers: [to], content: content ?? null, conversationId });
  }
}
