// For the test of a proxy's node dying (e2e-cluster/proxy-node-killed.test.js): counts numbered
// INFORMs, and saves what it has counted before it finishes with each, so the device acknowledges a
// number only once it is saved: a copy started on another device carries on from there.
//
// INFORM "n"                counts n (a number seen before counts as a repeat)
// REQUEST {"show": true}    INFORM {"seen": [n...], "repeats"}
import { Agent } from '/siebog/js/agent.js';

export default class Tally extends Agent {
  onStart(args, state) {
    this.seen = new Set(state?.seen ?? []);
    this.repeats = state?.repeats ?? 0;
  }

  async onMessage(msg) {
    if (msg.performative === 'REQUEST') {
      await this.reply(msg, 'INFORM', JSON.stringify({ seen: [...this.seen], repeats: this.repeats }));
      return;
    }
    if (msg.performative !== 'INFORM') return;
    const n = Number(msg.content);
    if (this.seen.has(n)) this.repeats++;
    else this.seen.add(n);
    await this.saveState({ seen: [...this.seen], repeats: this.repeats });
  }
}
