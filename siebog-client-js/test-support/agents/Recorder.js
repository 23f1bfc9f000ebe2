// A test agent for worker.test.js: records what it sees, slow and failing on demand.
import { Agent } from '../../src/agent.js';

export default class Recorder extends Agent {
  async onStart(args) {
    if (args.fail === 'yes') throw new Error('told to fail');
    this.seen = [];
  }

  async onMessage(msg) {
    if (msg.content === 'slow') await new Promise((r) => setTimeout(r, 30));
    if (msg.content === 'throw') throw new TypeError('thrown on purpose');
    if (msg.content === 'reject') await Promise.reject(new Error('rejected on purpose'));
    this.seen.push(msg.content);
    if (msg.content === 'report') this.reply(msg, 'INFORM', this.seen.join(','));
  }

  onStop() {
    this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: 'bye' });
  }
}
