// Uses the tuple space (this.tuples) on command, for e2e/tuples.test.js. A REQUEST's content is
// {"do": "out" | "rd" | "in" | "rdp" | "inp", "fields"?, "template"?, "timeoutMs"?, "leaseMs"?}; the
// answer is an INFORM with the result as JSON (a tuple, null, or null for out), or a FAILURE {"status", "message"}.
import { Agent } from '/siebog/js/agent.js';

export default class Tupler extends Agent {
  async onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    const { do: action, fields, template, timeoutMs, leaseMs } = JSON.parse(msg.content);
    try {
      let result = null;
      if (action === 'out') await this.tuples.out(fields, { leaseMs });
      else if (action === 'rd' || action === 'in') result = await this.tuples[action](template, { timeoutMs });
      else result = await this.tuples[action](template);
      await this.reply(msg, 'INFORM', JSON.stringify(result));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status ?? null, message: e.message }));
    }
  }
}
