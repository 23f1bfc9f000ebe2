// A module that does not default-export an Agent subclass fails to start, saying what is expected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();

test('a default export that is not an Agent is refused at start', async () => {
  command({ type: 'start', module: agentModule('NotAnAgent'), aid: 'n@siebog', args: {} });
  await settle(60, 1);
  const [report] = take();
  assert.equal(report.phase, 'start');
  assert.match(report.error, /must default-export a class that extends Agent/);
});
