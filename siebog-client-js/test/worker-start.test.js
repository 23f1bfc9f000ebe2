// A Worker whose agent throws in onStart reports phase start and handles nothing afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();

test('onStart throwing is reported as phase start; the agent is over', async () => {
  command({ type: 'start', module: agentModule('Recorder'), aid: 'r@siebog', args: { fail: 'yes' } });
  command({ type: 'deliver', message: { performative: 'INFORM', receivers: ['r@siebog'], content: 'x' }, seq: 1 });
  command({ type: 'stop' });
  await settle(60, 2);
  assert.deepEqual(take(), [{ type: 'agentError', phase: 'start', error: 'Error: told to fail' }, { type: 'stopped' }]);
});
