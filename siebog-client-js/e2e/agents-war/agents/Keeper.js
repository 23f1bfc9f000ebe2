// For tests of agent state: keeps whatever it is told to save.
//
// REQUEST {"save": value}   saves value; INFORM {"version"} once acknowledged, or FAILURE
//                           {"status", "error"} when the save was refused
// REQUEST {"saveBytes": n}  the same with a string of n characters (for the size limit)
// REQUEST {"show": true}    INFORM {"state", "version", "startedWith": {"state", "version"}}:
//                           its state now, and the state and version this copy started from
// REQUEST {"moveTo": id}    moves to that device (null: one the node picks): AGREE {"location"}
//                           from this copy, or REFUSE {"status", "error"}
import { Agent } from '/siebog/js/agent.js';

export default class Keeper extends Agent {
  onStart(args, state) {
    this.state = state;
    this.startedWith = { state, version: this.stateVersion };
  }

  async onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    const request = JSON.parse(msg.content);
    if ('moveTo' in request) {
      try {
        const { location } = await this.moveTo(request.moveTo);
        await this.reply(msg, 'AGREE', JSON.stringify({ location }));
      } catch (e) {
        await this.reply(msg, 'REFUSE', JSON.stringify({ status: e.status, error: e.message }));
      }
      return;
    }
    if (request.show) {
      await this.reply(msg, 'INFORM', JSON.stringify({ state: this.state, version: this.stateVersion, startedWith: this.startedWith }));
      return;
    }
    const state = 'saveBytes' in request ? 'x'.repeat(request.saveBytes) : request.save;
    try {
      const { version } = await this.saveState(state);
      this.state = state;
      await this.reply(msg, 'INFORM', JSON.stringify({ version }));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status, error: e.message }));
    }
  }
}
