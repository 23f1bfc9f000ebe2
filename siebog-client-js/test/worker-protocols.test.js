// An agent's askAll in its Worker (src/worker.js driven in-process, see test-support/worker-harness.js):
// gathering past AGREEs, a receiver that cannot be reached, and the late proposals of a call for
// proposals rejected by the worker itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();
const CONVENER = 'convener@siebog';
const deliver = (seq, content, extra = {}) => command({
  type: 'deliver', seq, message: { performative: 'INFORM', sender: 'boss@siebog', receivers: [CONVENER], content, ...extra },
});
const sends = (out) => out.filter((o) => o.type === 'send');
const reports = (out) => sends(out).filter((o) => o.message.receivers[0] === 'watcher@siebog').map((o) => o.message.content);

test('each receiver gets the question on its own; the gathering ends once each gave a final answer', async () => {
  command({ type: 'start', module: agentModule('Convener'), aid: CONVENER, args: {} });
  deliver(1, 'gather 5000 b@siebog,c@siebog,d@siebog');
  await settle(30, 4);
  const questions = sends(take());
  assert.deepEqual(questions.map((q) => q.message.receivers), [['b@siebog'], ['c@siebog'], ['d@siebog']]);
  assert.equal(new Set(questions.map((q) => q.message.replyWith)).size, 1, 'one replyWith for all');
  const replyWith = questions[0].message.replyWith;
  command({ type: 'sendResult', id: questions[0].id, error: null });
  command({ type: 'sendResult', id: questions[1].id, error: null });
  command({ type: 'sendResult', id: questions[2].id, error: 'no agent d@siebog' });
  await settle(10);
  const answer = (seq, performative, sender) => command({ type: 'deliver', seq, message: { performative, sender, receivers: [CONVENER], inReplyTo: replyWith } });
  answer(2, 'AGREE', 'b@siebog');
  answer(3, 'REFUSE', 'c@siebog');
  await settle(30);
  assert.deepEqual(reports(take()), [], 'b promised a final answer');
  answer(4, 'INFORM', 'b@siebog');
  await settle(30, 1);
  assert.deepEqual(reports(take()), ['FAILURE d@siebog not delivered: no agent d@siebog, AGREE b@siebog, REFUSE c@siebog, INFORM b@siebog']);
});

test('a call for proposals keeps what came by its deadline, and the worker rejects a late proposal itself', async () => {
  deliver(10, 'cfp 60 b@siebog,c@siebog');
  await settle(20, 2);
  const calls = sends(take());
  calls.forEach((c) => command({ type: 'sendResult', id: c.id, error: null }));
  const call = calls[0].message;
  assert.equal(call.protocol, 'fipa-contract-net');
  assert.equal(call.performative, 'CALL_FOR_PROPOSAL');
  command({ type: 'deliver', seq: 11, message: { performative: 'PROPOSE', sender: 'b@siebog', receivers: [CONVENER], inReplyTo: call.replyWith, content: '20' } });
  await settle(120, 1);
  assert.deepEqual(reports(take()), ['proposals b@siebog']);
  command({ type: 'deliver', seq: 12, message: {
    performative: 'PROPOSE', sender: 'c@siebog', receivers: [CONVENER], inReplyTo: call.replyWith, replyWith: 'late-1', conversationId: call.conversationId, content: '1',
  } });
  await settle(30, 2);
  const out = take();
  const [rejection] = sends(out);
  assert.equal(rejection.message.performative, 'REJECT_PROPOSAL');
  assert.deepEqual(rejection.message.receivers, ['c@siebog']);
  assert.equal(rejection.message.inReplyTo, 'late-1');
  assert.equal(rejection.message.conversationId, call.conversationId);
  assert.match(rejection.message.content, /^too late: proposals were due by \d{4}-/);
  assert.deepEqual(reports(out), [], 'onMessage never saw it');
  assert.deepEqual(out.filter((o) => o.type === 'handled').map((o) => o.seq), [12]);
  command({ type: 'deliver', seq: 13, message: { performative: 'INFORM', sender: 'c@siebog', receivers: [CONVENER], inReplyTo: call.replyWith, content: 'x' } });
  await settle(30, 1);
  assert.deepEqual(reports(take()), ['message INFORM x'], 'any other late answer reaches onMessage');
});
