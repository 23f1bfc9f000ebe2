// Runs the interaction protocols (this.protocols) on command, for e2e/protocols.test.js: a REQUEST
// {"do": "request", "to": AID} or {"do": "vote", "voters": [AID], "rule": "PLURALITY" | "MAJORITY"}
// is answered with INFORM and the result as JSON (the request's answer content, or the ballot's
// result), or FAILURE {"status", "message"}.
import { Agent } from '/siebog/js/agent.js';

export default class Chair extends Agent {
  async onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    const order = JSON.parse(msg.content);
    try {
      const result = order.do === 'request'
        ? (await this.protocols.request({ performative: 'REQUEST', receivers: [order.to], content: 'ping' }, { timeoutMs: 5_000 })).content
        : await this.protocols.vote({ performative: 'REQUEST', receivers: order.voters, content: 'which?' }, { deadlineMs: 3_000, rule: order.rule });
      await this.reply(msg, 'INFORM', JSON.stringify(result));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status ?? null, message: e.message }));
    }
  }
}
