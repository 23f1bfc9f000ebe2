// JADE's book seller in a browser: the same behaviour as the server agent BookSeller. Start it
// with args {"catalogue": "Moby Dick=12.50;Dracula=7.25"}: it offers its books in the directory
// facilitator (type "book-selling"); a call for proposals naming a title it has gets PROPOSE with
// the price, else REFUSE; an accepted proposal sells the book with INFORM "sold <title> at <price>",
// or FAILURE when it was sold meanwhile; a QUERY_REF gets its catalogue as it is now.
import { Agent } from '/siebog/js/agent.js';

export default class BrowserBookSeller extends Agent {
  onStart(args) {
    this.catalogue = new Map();
    for (const entry of (args.catalogue ?? '').split(';').filter((e) => e.trim() !== '')) {
      const at = entry.lastIndexOf('=');
      if (at < 1 || !(Number(entry.slice(at + 1)) >= 0)) throw new Error(`a catalogue entry must be title=price, got '${entry}'`);
      this.catalogue.set(entry.slice(0, at).trim(), entry.slice(at + 1).trim());
    }
    // Not awaited: df's answer is a message, and no message reaches an agent before its onStart has returned.
    this.df.register({ type: 'book-selling', name: 'books', protocols: ['fipa-contract-net'] })
      .catch((e) => console.warn(`${this.aid} could not offer its books in the directory: ${e.message}`));
  }

  async onMessage(msg) {
    const title = (msg.content ?? '').trim();
    switch (msg.performative) {
      case 'CALL_FOR_PROPOSAL': {
        const price = this.catalogue.get(title);
        await (price !== undefined ? this.reply(msg, 'PROPOSE', price) : this.reply(msg, 'REFUSE', `not available: ${title}`));
        break;
      }
      case 'ACCEPT_PROPOSAL': {
        const price = this.catalogue.get(title);
        this.catalogue.delete(title);
        await (price !== undefined ? this.reply(msg, 'INFORM', `sold ${title} at ${price}`) : this.reply(msg, 'FAILURE', `sold meanwhile: ${title}`));
        break;
      }
      case 'QUERY_REF':
        await this.reply(msg, 'INFORM', [...this.catalogue].sort(([a], [b]) => a.localeCompare(b)).map(([t, p]) => `${t}=${p}`).join(';'));
        break;
      default:
    }
  }
}
