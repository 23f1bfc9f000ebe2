// Counts the primes below N in chunks and saves its progress after each chunk, so that when its
// device closes it carries on from there on another device instead of starting over.
//
// REQUEST content: {"below": N, "chunk": C}   (C numbers per chunk, default 100000)
// INFORM content:  {"below": N, "count": primes below N, "resumedFrom": {"version": v, "next": n}}
//                  resumedFrom is the saved state this copy of the agent went on from (its version
//                  and where it was), null when it started the job from scratch.
//
// How it survives: the REQUEST is acknowledged only once onMessage returns, so when the device
// closes mid-computation the server starts the agent on another device with its last saved state
// and delivers the REQUEST again; onMessage sees the same job in the state and goes on from `next`.
import { Agent } from '/siebog/js/agent.js';

export default class Primes extends Agent {
  onStart(args, state) {
    this.state = state; // {below, next, count}: count = primes below next, so far; null at first
  }

  async onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    const { below, chunk = 100_000 } = JSON.parse(msg.content);
    let resumedFrom = null;
    if (this.state?.below === below) resumedFrom = { version: this.stateVersion, next: this.state.next };
    else this.state = { below, next: 0, count: 0 }; // a new job

    while (this.state.next < below) {
      const end = Math.min(below, this.state.next + chunk);
      let count = this.state.count;
      for (let n = this.state.next; n < end; n++) if (isPrime(n)) count++;
      this.state = { below, next: end, count };
      try {
        await this.saveState(this.state); // resolves once Cassandra has it
      } catch (e) {
        if (e.status === 409) return; // another copy of this agent saved meanwhile: it carries on, not this one
        // Anything else (Cassandra slow or down): go on; the next chunk saves again.
      }
    }
    await this.reply(msg, 'INFORM', JSON.stringify({ below, count: this.state.count, resumedFrom }));
  }
}

function isPrime(n) {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}
