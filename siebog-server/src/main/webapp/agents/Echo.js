// Answers every REQUEST with an INFORM carrying the same content.
import { Agent } from '../js/agent.js';

export default class Echo extends Agent {
  onMessage(msg) {
    if (msg.performative === 'REQUEST') this.reply(msg, 'INFORM', msg.content);
  }
}
