// A test agent for worker-move.test.js: asks to move on request, reports a refusal; says goodbye in onStop.
import { Agent } from '../../src/agent.js';

export default class Mover extends Agent {
  onMessage(msg) {
    const report = (what) => { this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: JSON.stringify(what) }); };
    if (msg.content.startsWith('move-to ')) {
      const device = msg.content.slice('move-to '.length) || null;
      this.moveTo(device).then(({ location }) => report({ moved: location }), (e) => report({ status: e.status, message: e.message }));
    }
  }

  onStop() {
    this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: 'bye' });
  }
}
