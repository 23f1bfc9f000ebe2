// The interaction protocols for client agents, over Agent#askAll: the same messages as the Java
// API's FipaRequest, ContractNet and Ballot, so Java and JavaScript agents take either side
// (docs/agents.md, "Interaction protocols").
import { freshId } from './acl.js';
import { SiebogError } from './session.js';

export const FIPA_REQUEST = 'fipa-request';
export const CONTRACT_NET = 'fipa-contract-net';
export const VOTING = 'siebog-voting';

/** `msg` as the first of `protocol`'s conversation, with `replyBy` when given. */
function start(msg, protocol, replyBy) {
  return {
    ...msg, protocol, conversationId: msg.conversationId ?? freshId(protocol), ...(replyBy ? { replyBy } : {}),
  };
}

/** The one participant's final answer when it is an INFORM; else a 502 carrying it, or a 504. */
function informed(asked, answers, timeoutMs) {
  const last = answers.at(-1);
  if (!last || last.performative === 'AGREE') {
    throw new SiebogError(504, `no final answer from ${asked.receivers.join(', ')} within ${timeoutMs} ms`);
  }
  if (last.performative !== 'INFORM') throw failed(`${asked.receivers[0]} answered ${last.performative}${last.content == null ? '' : `: ${last.content}`}`, last);
  return last;
}

function failed(message, answer = null) {
  const error = new SiebogError(502, message);
  if (answer) error.answer = answer;
  return error;
}

/**
 * Counts `votes` (one per voter who voted) of `voters` voters: PLURALITY, the choice with the
 * most votes (a tie: none); MAJORITY, the choice of more than half of all the voters asked.
 * @returns {{winner: string|null, tally: Record<string, number>, voters: number, votes: number}}
 */
export function count(votes, voters, rule) {
  const tally = {};
  for (const vote of votes) tally[vote] = (tally[vote] ?? 0) + 1;
  const most = Math.max(0, ...Object.values(tally));
  const leaders = Object.keys(tally).filter((choice) => tally[choice] === most).sort();
  let winner = null;
  if (rule === 'PLURALITY') winner = leaders.length === 1 ? leaders[0] : null;
  else if (rule === 'MAJORITY') winner = most * 2 > voters ? leaders[0] : null;
  const sorted = Object.fromEntries(Object.keys(tally).sort().map((choice) => [choice, tally[choice]]));
  return { winner, tally: sorted, voters, votes: votes.length };
}

export class Protocols {
  #agent;

  /** @param {import('./agent.js').Agent} agent the initiator */
  constructor(agent) {
    this.#agent = agent;
  }

  /**
   * FIPA Request: sends `msg` (to exactly one agent) and resolves with its INFORM, past an AGREE;
   * rejects with 502 for a REFUSE, NOT_UNDERSTOOD or FAILURE (`error.answer`), 504 for no final answer.
   */
  async request(msg, { timeoutMs = 30_000 } = {}) {
    if (msg.receivers?.length !== 1) throw new SiebogError(400, `a FIPA request goes to exactly one agent; this one names ${msg.receivers?.length ?? 0}`);
    const asked = start(msg, FIPA_REQUEST);
    return informed(asked, await this.#agent.askAll(asked, { timeoutMs }), timeoutMs);
  }

  /**
   * Contract Net, phase one: calls for proposals (replyBy the deadline) and resolves with the
   * PROPOSE answers that came by the deadline; refusals are left out, late proposals rejected.
   */
  async callForProposals(msg, { deadlineMs }) {
    const call = start(msg, CONTRACT_NET, new Date(Date.now() + deadlineMs).toISOString());
    return (await this.#agent.askAll(call, { timeoutMs: deadlineMs })).filter((a) => a.performative === 'PROPOSE');
  }

  /**
   * Contract Net, phase two: ACCEPT_PROPOSAL to `accepted`, REJECT_PROPOSAL to the other proposals;
   * resolves with the accepted participant's INFORM (502 for its FAILURE; with `accepted` null,
   * every proposal is rejected and this rejects with 502).
   */
  async award(proposals, accepted, { content = null, timeoutMs = 30_000 } = {}) {
    for (const proposal of proposals) {
      if (proposal !== accepted) await this.#agent.reply(proposal, 'REJECT_PROPOSAL', content);
    }
    if (!accepted) throw failed(proposals.length === 0 ? 'no participant proposed' : `no proposal was accepted (${proposals.length} rejected)`);
    const acceptance = {
      performative: 'ACCEPT_PROPOSAL', receivers: [accepted.replyTo ?? accepted.sender], content, protocol: CONTRACT_NET,
      conversationId: accepted.conversationId ?? null, inReplyTo: accepted.replyWith ?? null,
    };
    return informed(acceptance, await this.#agent.askAll(acceptance, { timeoutMs }), timeoutMs);
  }

  /** A ballot: each voter's first INFORM is its vote (its content, trimmed); counted by `rule`. */
  async vote(msg, { deadlineMs, rule }) {
    if (rule !== 'PLURALITY' && rule !== 'MAJORITY') throw new SiebogError(400, `rule must be PLURALITY or MAJORITY, got ${rule}`);
    const asked = start(msg, VOTING, new Date(Date.now() + deadlineMs).toISOString());
    const answers = await this.#agent.askAll(asked, { timeoutMs: deadlineMs });
    const voted = new Set();
    const votes = answers
      .filter((a) => a.performative === 'INFORM' && typeof a.content === 'string' && a.content.trim() !== '' && !voted.has(a.sender) && voted.add(a.sender))
      .map((a) => a.content.trim());
    return count(votes, asked.receivers.length, rule);
  }
}
