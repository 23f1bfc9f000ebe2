// The Worker side of agent state: onStart(args, state), saveState ↔ saveResult, stateVersion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();
const ask = (content, seq) => command({ type: 'deliver', message: { performative: 'REQUEST', receivers: ['s@siebog'], content }, seq });
const reports = (posted) => posted.filter((p) => p.type === 'send').map((p) => JSON.parse(p.message.content));

test('onStart gets the saved state; saveState posts JSON and settles with saveResult', async () => {
  command({ type: 'start', module: agentModule('Saver'), aid: 's@siebog', args: {}, state: { next: 10, count: 4 }, version: 3 });
  ask('started', 1);
  await settle(20, 3);
  const first = take();
  assert.deepEqual(first[0], { type: 'started' });
  assert.deepEqual(reports(first), [{ state: { next: 10, count: 4 }, version: 3 }]);

  ask('{"next":20,"count":8}', 2);
  await settle(20, 1);
  const [save] = take();
  assert.equal(save.type, 'saveState');
  assert.equal(save.json, '{"next":20,"count":8}', 'copied when saveState was called, before the agent changed it');
  command({ type: 'saveResult', id: save.id, version: 4, error: null });
  await settle(20, 2);
  assert.deepEqual(reports(take()), [{ saved: 4, stateVersion: 4 }]);

  ask('{"n":1}', 3);
  await settle(20, 1);
  const [refused] = take();
  command({ type: 'saveResult', id: refused.id, version: 4, error: { status: 409, message: 'version 4 is not current (now 6)', version: 6 } });
  await settle(20, 2);
  assert.deepEqual(reports(take()), [{ status: 409, message: 'version 4 is not current (now 6)', version: 6, stateVersion: 4, isError: true }]);

  ask('{"n":2}', 4);
  await settle(20, 1);
  const [slow] = take();
  command({ type: 'saveResult', id: slow.id, version: 5, error: { status: 503, message: 'Cassandra is down', version: 5 } });
  await settle(20, 2);
  assert.deepEqual(reports(take()), [{ status: 503, message: 'Cassandra is down', version: 5, stateVersion: 5, isError: true }]);

  ask('cyclic', 5);
  ask('undefined', 6);
  await settle(40, 4);
  const bad = take();
  assert.ok(!bad.some((p) => p.type === 'saveState'), 'nothing that is not JSON reaches the device');
  assert.deepEqual(reports(bad), [{ status: 400, name: 'SiebogError' }, { status: 400 }]);
});
