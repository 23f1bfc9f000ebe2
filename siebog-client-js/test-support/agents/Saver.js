// A test agent for worker-state.test.js: reports the state it started with, saves on request.
import { Agent } from '../../src/agent.js';

export default class Saver extends Agent {
  onStart(args, state) {
    this.started = { state, version: this.stateVersion };
  }

  async onMessage(msg) {
    // Not awaited: the test does not answer sends.
    const report = (what) => { this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: JSON.stringify(what) }); };
    if (msg.content === 'started') return report(this.started);
    if (msg.content === 'cyclic') {
      const cyclic = {};
      cyclic.self = cyclic;
      return this.saveState(cyclic).catch((e) => report({ status: e.status, name: e.name }));
    }
    if (msg.content === 'undefined') return this.saveState(undefined).catch((e) => report({ status: e.status }));
    // Anything else is a state to save; mutating it afterwards must not change what is saved.
    const state = JSON.parse(msg.content);
    const saving = this.saveState(state);
    state.mutated = true;
    try {
      const { version } = await saving;
      report({ saved: version, stateVersion: this.stateVersion });
    } catch (e) {
      report({ status: e.status, message: e.message, version: e.version ?? null, stateVersion: this.stateVersion, isError: e instanceof Error });
    }
  }
}
