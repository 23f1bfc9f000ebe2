// A test agent for worker-ask.test.js: asks on command and reports how each question ended.
import { Agent } from '../../src/agent.js';

export default class Asker extends Agent {
  async onMessage(msg) {
    const [command, receiver, timeout] = (msg.content ?? '').split(' ');
    if (command === 'await') { // asks and awaits the answer inside onMessage
      this.report(await this.settled(receiver, Number(timeout)));
    } else if (command === 'flood') { // asks `count` questions at once, each reported when it ends
      const count = Number((msg.content ?? '').split(' ')[3]);
      for (let i = 0; i < count; i++) this.settled(receiver, Number(timeout)).then((outcome) => this.report(outcome));
    } else if (command === 'ask') { // asks and goes on
      this.settled(receiver, Number(timeout)).then((outcome) => this.report(outcome));
    } else {
      this.report(`message ${msg.content}`);
    }
  }

  settled(receiver, timeoutMs) {
    return this.ask({ performative: 'REQUEST', receivers: [receiver], content: 'question' }, { timeoutMs })
      .then((answer) => `answered ${answer.content}`, (e) => `failed ${e.status ?? "-"} ${e.message}`);
  }

  report(text) {
    this.send({ performative: 'INFORM', receivers: ['watcher@siebog'], content: text });
  }
}
