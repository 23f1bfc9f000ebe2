// Drives src/worker.js in-process (see test-support/worker-harness.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();
const module = agentModule('Recorder');
const message = (content, extra = {}) => ({ performative: 'REQUEST', sender: 'boss@siebog', receivers: ['rec@siebog'], content, ...extra });

test('an agent runs start, messages in order (async ones awaited), and stop', async () => {
  command({ type: 'start', module, aid: 'rec@siebog', args: {} });
  command({ type: 'deliver', message: message('slow'), seq: 1 });
  command({ type: 'deliver', message: message('fast'), seq: 2 });
  command({ type: 'deliver', message: message('local'), seq: null });
  command({ type: 'deliver', message: message('throw'), seq: 3 });
  command({ type: 'deliver', message: message('reject'), seq: 4 });
  command({ type: 'deliver', message: message('report', { replyWith: 'q1' }), seq: 5 });
  await settle(60, 10);
  const out = take();
  assert.deepEqual(out.slice(0, 4), [
    { type: 'started' }, { type: 'handled', seq: 1 }, { type: 'handled', seq: 2 }, { type: 'handled', seq: null },
  ]);
  assert.deepEqual(out.slice(4, 8), [
    { type: 'agentError', phase: 'message', error: 'TypeError: thrown on purpose' },
    { type: 'handled', seq: 3 },
    { type: 'agentError', phase: 'message', error: 'Error: rejected on purpose' },
    { type: 'handled', seq: 4 },
  ]);
  const send = out[8];
  assert.equal(send.type, 'send');
  assert.deepEqual(send.message, {
    performative: 'INFORM', sender: 'rec@siebog', receivers: ['boss@siebog'], content: 'slow,fast,local,report', inReplyTo: 'q1',
  });
  assert.deepEqual(out[9], { type: 'handled', seq: 5 });
  command({ type: 'sendResult', id: send.id, error: null });

  command({ type: 'stop' });
  await settle(60, 2);
  const end = take();
  assert.equal(end[0].type, 'send');
  assert.equal(end[0].message.content, 'bye');
  assert.deepEqual(end[1], { type: 'stopped' });
  command({ type: 'deliver', message: message('late'), seq: 6 });
  await settle();
  assert.deepEqual(take(), [], 'nothing is handled after stop');
});
