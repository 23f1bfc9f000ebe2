// A test agent for worker-protocols.test.js: gathers answers or runs a call for proposals on
// command, and reports how it ended to watcher@siebog.
import { Agent } from '../../src/agent.js';

export default class Convener extends Agent {
  async onMessage(msg) {
    const [command, timeout, receivers] = (msg.content ?? '').split(' ');
    if (command === 'gather') {
      const answers = await this.askAll({ performative: 'REQUEST', receivers: receivers.split(','), content: 'q' }, { timeoutMs: Number(timeout) });
      this.report(answers.map((a) => `${a.performative} ${a.sender}${a.userProperties?.['siebog-undelivered'] ? ` ${a.content}` : ''}`).join(', '));
    } else if (command === 'cfp') {
      const proposals = await this.protocols.callForProposals({ performative: 'CALL_FOR_PROPOSAL', receivers: receivers.split(','), content: 'book' },
        { deadlineMs: Number(timeout) });
      this.report(`proposals ${proposals.map((p) => p.sender).join(',')}`);
    } else {
      this.report(`message ${msg.performative} ${msg.content}`);
    }
  }

  report(text) {
    this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: text });
  }
}
