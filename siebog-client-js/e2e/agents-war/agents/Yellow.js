// Uses the directory facilitator (this.df) on command, for e2e/directory.test.js. A REQUEST's
// content is {"do": "register" | "modify" | "deregister" | "search" | "subscribe" | "heard", "service"?, "name"?,
// "template"?, "leaseMs"?, "limit"?}; the answer is an INFORM with the result as JSON, or a FAILURE
// {"status", "message"}.
import { Agent } from '/siebog/js/agent.js';

export default class Yellow extends Agent {
  onStart() {
    this.heard = []; // notifications of its subscription, as "change name"
  }

  async onMessage(msg) {
    if (msg.protocol === 'fipa-subscribe') {
      const { change, entry } = JSON.parse(msg.content);
      this.heard.push(`${change} ${entry.service.name}`);
      return;
    }
    if (msg.performative !== 'REQUEST') return;
    const order = JSON.parse(msg.content);
    try {
      const result = await this.act(order);
      await this.reply(msg, 'INFORM', JSON.stringify(result ?? null));
    } catch (e) {
      await this.reply(msg, 'FAILURE', JSON.stringify({ status: e.status ?? null, message: e.message }));
    }
  }

  act({ do: action, service, name, template, leaseMs, limit }) {
    switch (action) {
      case 'register': return this.df.register(service, { leaseMs });
      case 'modify': return this.df.modify(service, { leaseMs });
      case 'deregister': return this.df.deregister(name);
      case 'search': return this.df.search(template, { limit });
      case 'subscribe': return this.df.subscribe(template, { leaseMs });
      case 'heard': return this.heard;
      default: throw new Error(`unknown order ${action}`);
    }
  }
}
