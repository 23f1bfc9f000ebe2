// For tests of failing agents: throws in onStart when args.failStart is "true", throws in
// onMessage when the content is "boom", and otherwise echoes like Echo.
import { Agent } from '/siebog/js/agent.js';

export default class Faulty extends Agent {
  onStart(args) {
    if (args.failStart === 'true') throw new Error('failStart was requested');
  }

  onMessage(msg) {
    if (msg.content === 'boom') throw new Error('boom');
    if (msg.performative === 'REQUEST') this.reply(msg, 'INFORM', msg.content);
  }
}
