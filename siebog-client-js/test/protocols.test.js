// The interaction protocols' counting and messages (src/protocols.js), over a fake askAll; the
// worker's gathering is in worker-protocols.test.js, the real protocols between Java and JavaScript
// agents in e2e/book-trading.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Protocols, count } from '../src/protocols.js';

const ballots = JSON.parse(readFileSync(new URL('./fixtures/ballots.json', import.meta.url), 'utf8'));

test('a ballot counts as the fixtures shared with the Java API say', () => {
  for (const c of ballots.cases) {
    assert.deepEqual(count(c.votes, c.voters, c.rule), { winner: c.winner, tally: c.tally, voters: c.voters, votes: c.votes.length }, JSON.stringify(c));
  }
});

/** An initiator whose askAll answers with `answers(question)` and whose replies are recorded. */
function initiator(answers) {
  const agent = {
    aid: 'buyer@lab',
    asked: [],
    replied: [],
    askAll(msg, options) {
      agent.asked.push({ msg, options });
      return Promise.resolve(answers(msg));
    },
    reply(msg, performative, content) {
      agent.replied.push({ to: msg.sender, performative, content });
      return Promise.resolve();
    },
  };
  return agent;
}

test('a request resolves with the INFORM past an AGREE, and rejects a REFUSE with 502 and no answer with 504', async () => {
  const agreeing = initiator(() => [{ performative: 'AGREE' }, { performative: 'INFORM', content: 'done' }]);
  assert.equal((await new Protocols(agreeing).request({ performative: 'REQUEST', receivers: ['p@lab'] })).content, 'done');
  assert.equal(agreeing.asked[0].msg.protocol, 'fipa-request');
  assert.match(agreeing.asked[0].msg.conversationId, /^fipa-request-[0-9a-f]{24}$/);
  const refusing = new Protocols(initiator(() => [{ performative: 'REFUSE', content: 'no' }]));
  await assert.rejects(refusing.request({ performative: 'REQUEST', receivers: ['p@lab'] }),
    (e) => e.status === 502 && e.answer.performative === 'REFUSE' && /p@lab answered REFUSE: no/.test(e.message));
  const silent = new Protocols(initiator(() => [{ performative: 'AGREE' }]));
  await assert.rejects(silent.request({ performative: 'REQUEST', receivers: ['p@lab'] }, { timeoutMs: 10 }), (e) => e.status === 504);
  await assert.rejects(silent.request({ performative: 'REQUEST', receivers: ['p@lab', 'q@lab'] }), (e) => e.status === 400);
});

test('a call for proposals keeps the PROPOSEs, and the award accepts one and rejects the rest', async () => {
  const proposals = [
    { performative: 'PROPOSE', sender: 'a@lab', content: '30', conversationId: 'c', replyWith: 'ra' },
    { performative: 'REFUSE', sender: 'b@lab' },
    { performative: 'PROPOSE', sender: 'c@lab', content: '20', conversationId: 'c', replyWith: 'rc' },
  ];
  const buyer = initiator((msg) => (msg.performative === 'ACCEPT_PROPOSAL' ? [{ performative: 'INFORM', content: 'sold' }] : proposals));
  const protocols = new Protocols(buyer);
  const offers = await protocols.callForProposals({ performative: 'CALL_FOR_PROPOSAL', receivers: ['a@lab', 'b@lab', 'c@lab'], content: 'book' },
    { deadlineMs: 5000 });
  assert.deepEqual(offers.map((p) => p.sender), ['a@lab', 'c@lab']);
  const call = buyer.asked[0];
  assert.equal(call.msg.protocol, 'fipa-contract-net');
  assert.equal(call.options.timeoutMs, 5000);
  assert.ok(Date.parse(call.msg.replyBy) > Date.now(), 'replyBy is the deadline');
  assert.equal((await protocols.award(offers, offers[1], { content: 'book' })).content, 'sold');
  assert.deepEqual(buyer.replied, [{ to: 'a@lab', performative: 'REJECT_PROPOSAL', content: 'book' }]);
  assert.deepEqual(buyer.asked[1].msg, {
    performative: 'ACCEPT_PROPOSAL', receivers: ['c@lab'], content: 'book', protocol: 'fipa-contract-net', conversationId: 'c', inReplyTo: 'rc',
  });
  await assert.rejects(protocols.award([], null), (e) => e.status === 502 && /no participant proposed/.test(e.message));
});

test('a vote counts each voter’s first INFORM; a bad rule is refused before asking', async () => {
  const voters = initiator(() => [
    { performative: 'INFORM', sender: 'a@lab', content: ' pizza ' },
    { performative: 'INFORM', sender: 'a@lab', content: 'sushi' },
    { performative: 'REFUSE', sender: 'b@lab' },
    { performative: 'INFORM', sender: 'c@lab', content: 'pizza' },
  ]);
  const result = await new Protocols(voters).vote({ performative: 'REQUEST', receivers: ['a@lab', 'b@lab', 'c@lab'], content: 'lunch?' },
    { deadlineMs: 100, rule: 'MAJORITY' });
  assert.deepEqual(result, { winner: 'pizza', tally: { pizza: 2 }, voters: 3, votes: 2 });
  assert.equal(voters.asked[0].msg.protocol, 'siebog-voting');
  await assert.rejects(new Protocols(voters).vote({ performative: 'REQUEST', receivers: ['a@lab'] }, { deadlineMs: 1, rule: 'UNANIMITY' }),
    (e) => e.status === 400);
  assert.equal(voters.asked.length, 1);
});
