// An agent's ask in its Worker (src/worker.js driven in-process, see test-support/worker-harness.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();
const ASKER = 'asker@siebog';
const deliver = (seq, content, extra = {}) => command({
  type: 'deliver', seq, message: { performative: 'INFORM', sender: 'boss@siebog', receivers: [ASKER], content, ...extra },
});
const sends = (out) => out.filter((o) => o.type === 'send');
const reports = (out) => sends(out).filter((o) => o.message.receivers[0] === 'watcher@siebog').map((o) => o.message.content);

test('an answer settles the question as it arrives, ahead of queued messages; handled stays in order', async () => {
  command({ type: 'start', module: agentModule('Asker'), aid: ASKER, args: {} });
  deliver(1, 'await b@siebog 5000');
  await settle(30, 2);
  const [question] = sends(take());
  assert.equal(question.message.performative, 'REQUEST');
  assert.equal(question.message.sender, ASKER);
  assert.equal(question.message.replyTo, ASKER, 'answers come back to the asker');
  assert.match(question.message.replyWith, /^ask-[0-9a-f]{24}$/);
  command({ type: 'sendResult', id: question.id, error: null });

  deliver(2, 'plain');
  deliver(3, 'yes', { inReplyTo: question.message.replyWith });
  deliver(4, 'again', { inReplyTo: question.message.replyWith });
  await settle(60, 6);
  const out = take();
  assert.deepEqual(reports(out), ['answered yes', 'message plain', 'message again'],
    'the awaiting onMessage went on with the answer; a second answer is an ordinary message');
  assert.deepEqual(out.filter((o) => o.type === 'handled').map((o) => o.seq), [1, 2, 3, 4]);
});

test('no answer in time rejects with 504, a refused question with the refusal, a bad timeout with 400', async () => {
  deliver(5, 'ask c@siebog 50');
  deliver(6, 'ask d@siebog 5000');
  deliver(7, 'ask c@siebog 0');
  await settle(20, 6);
  const first = take();
  const [slow, refused] = sends(first).filter((o) => o.message.performative === 'REQUEST');
  command({ type: 'sendResult', id: slow.id, error: null });
  command({ type: 'sendResult', id: refused.id, error: 'no agent d@siebog' });
  await settle(120, 2);
  const out = [...reports(first), ...reports(take())];
  assert.equal(out.length, 3, String(out));
  assert.ok(out.includes('failed - no agent d@siebog'), String(out));
  assert.ok(out.includes('failed 504 no reply from c@siebog within 50 ms (the message was delivered)'), String(out));
  assert.ok(out.some((r) => r.startsWith('failed 400 timeoutMs must be a whole number of milliseconds from 1 to 300000')), String(out));
});

test('an agent awaits at most 1,000 answers: the 1,001st question is refused with 503 and not sent', async () => {
  // A timeout far longer than sending 1,001 questions takes on a loaded machine: only the refusal ends before the check.
  deliver(100, 'flood f@siebog 3000 1001');
  await settle(20, 1002);
  const first = take();
  assert.equal(sends(first).filter((o) => o.message.performative === 'REQUEST').length, 1000, 'only 1,000 questions were sent');
  assert.deepEqual(reports(first).map((r) => r.slice(0, 10)), ['failed 503'], 'the one over the bound ends at once');
  assert.match(reports(first)[0], /already awaits answers to 1000 questions/);
  await settle(20, 1000); // the 1,000 timeouts, 3 s after they were asked
  const timedOut = reports(take());
  assert.equal(timedOut.filter((r) => r.startsWith('failed 504')).length, 1000);
  deliver(101, 'ask g@siebog 50');
  await settle(20, 2);
  assert.equal(sends(take()).filter((o) => o.message.performative === 'REQUEST').length, 1, 'room again once they ended');
  await settle(100);
  take();
});

test('a stopped agent drops its open questions: a late answer settles nothing and is not handled', async () => {
  deliver(8, 'ask e@siebog 100');
  await settle(20, 2);
  const [question] = sends(take());
  command({ type: 'stop' });
  await settle(20, 1);
  assert.deepEqual(take(), [{ type: 'stopped' }]);
  deliver(9, 'late', { inReplyTo: question.message.replyWith });
  await settle(200);
  assert.deepEqual(take(), [], 'no report from the timer either');
});
