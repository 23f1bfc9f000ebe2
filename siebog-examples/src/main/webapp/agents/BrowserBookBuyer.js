// JADE's book buyer in a browser: the same behaviour as the server agent BookBuyer (whose class
// name it cannot share: agent class names are unique across server and client agents). Start it
// with args {"title": "Dracula", "maxPrice": "8.00"} (and "retryMs", 5000 by default): it finds the
// sellers in the directory facilitator (type "book-selling"), calls for proposals (Contract Net, 2 s
// to propose), accepts the cheapest at or under its maximum, rejects the rest, and tries again
// every retryMs until it has bought the book. A QUERY_REF gets INFORM
// "bought <title> from <seller AID> at <price>", or "not bought: <reason>" while it is still trying.
// What it bought is saved (saveState), so a move to another device does not buy the book twice.
import { Agent } from '/siebog/js/agent.js';

const PROPOSALS_DUE_MS = 2_000;
const RETRY = 'retry';

export default class BrowserBookBuyer extends Agent {
  onStart(args, state) {
    this.title = args.title;
    this.maxPrice = Number(args.maxPrice);
    if (!this.title || !(this.maxPrice >= 0)) throw new Error('a book buyer needs a "title" and a decimal "maxPrice" of 0 or more');
    this.retryMs = Number(args.retryMs ?? 5_000);
    this.bought = state?.bought ?? null;
    this.notBought = 'not bought: no round yet';
    if (!this.bought) this.tryToBuy(); // not awaited: onStart returns, and the round runs between messages
  }

  async onMessage(msg) {
    if (msg.performative === 'QUERY_REF') {
      await this.reply(msg, 'INFORM', this.bought ?? this.notBought);
    } else if (msg.performative === 'INFORM' && msg.conversationId === RETRY && msg.sender === this.aid && !this.bought) {
      await this.tryToBuy();
    }
  }

  /** One round: the sellers, their proposals, the cheapest affordable one accepted; another round later unless bought. */
  async tryToBuy() {
    try {
      const { entries } = await this.df.search({ type: 'book-selling' }, { limit: 100 });
      if (entries.length === 0) throw new Error('no sellers in the directory');
      const proposals = await this.protocols.callForProposals(
        { performative: 'CALL_FOR_PROPOSAL', receivers: entries.map((e) => e.agent), content: this.title }, { deadlineMs: PROPOSALS_DUE_MS });
      const affordable = proposals.filter((p) => Number(p.content) <= this.maxPrice);
      const cheapest = affordable.reduce((best, p) => (best && Number(best.content) <= Number(p.content) ? best : p), null);
      if (!cheapest) {
        await this.protocols.award(proposals, null).catch(() => {}); // rejects them all
        throw new Error(proposals.length === 0 ? `no seller offers ${this.title}`
          : `no offer at or under ${twoDecimals(this.maxPrice)} (${proposals.length} above it)`);
      }
      const sold = await this.protocols.award(proposals, cheapest, { content: this.title, timeoutMs: 5_000 });
      this.bought = `bought ${this.title} from ${sold.sender} at ${cheapest.content}`;
      await this.saveState({ bought: this.bought }).catch(() => {}); // without a state store, kept while the agent stays here
    } catch (e) {
      this.notBought = `not bought: ${e.message}`;
      setTimeout(() => this.send({ performative: 'INFORM', receivers: [this.aid], conversationId: RETRY, content: RETRY }).catch(() => {}),
        this.retryMs);
    }
  }
}

/** A price as the server agents write it: two decimals. */
function twoDecimals(price) {
  return price.toFixed(2);
}
