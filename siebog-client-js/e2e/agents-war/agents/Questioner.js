// Asks with `this.ask` and passes the outcome back, for tests of ask between client and server
// agents. A REQUEST with content {"to": "<aid>", "content": "<string>", "performative"?: "REQUEST",
// "timeoutMs"?: 5000} is asked of `to`; the answer goes back to the original asker as an INFORM
// with content {"from": "<who answered>", "content": "<their content>"}, a failure as a FAILURE
// with content {"status": <SiebogError status>, "message": "<why>"}.
import { Agent } from '/siebog/js/agent.js';

export default class Questioner extends Agent {
  async onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    const { to, content, performative = 'REQUEST', timeoutMs = 5000 } = JSON.parse(msg.content);
    try {
      const answer = await this.ask({ performative, receivers: [to], content: content ?? null }, { timeoutMs });
      await this.reply(msg, 'INFORM', JSON.stringify({ from: answer.sender, content: answer.content }));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status ?? null, message: e.message }));
    }
  }
}
