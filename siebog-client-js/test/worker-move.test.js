// The Worker side of a client agent's move: moveTo asks the device, a refusal reaches the agent, and
// the stop that ends a copy that moved does not run onStop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWorker, command, settle, take, agentModule } from '../test-support/worker-harness.js';

await loadWorker();
const ask = (content, seq) => command({ type: 'deliver', message: { performative: 'REQUEST', receivers: ['m@siebog'], content }, seq });

test('moveTo asks the device; a refusal settles it; the stop of a moved copy skips onStop', async () => {
  command({ type: 'start', module: agentModule('Mover'), aid: 'm@siebog', args: {} });
  ask('move-to d-other', 1);
  await settle(20, 3);
  const asked = take();
  assert.deepEqual(asked[0], { type: 'started' });
  const move = asked.find((p) => p.type === 'move');
  assert.deepEqual(move, { type: 'move', id: move.id, device: 'd-other' });

  command({ type: 'moveResult', id: move.id, error: { status: 400, message: "there is no device 'd-other'" } });
  await settle(20, 1);
  const [refusal] = take().filter((p) => p.type === 'send');
  assert.deepEqual(JSON.parse(refusal.message.content), { status: 400, message: "there is no device 'd-other'" });

  ask('move-to ', 2); // to a device the node picks
  await settle(20, 2);
  const [accepted] = take().filter((p) => p.type === 'move');
  assert.equal(accepted.device, null);
  command({ type: 'moveResult', id: accepted.id, location: 'd-picked', error: null });
  await settle(20, 1);
  const [heard] = take().filter((p) => p.type === 'send');
  assert.deepEqual(JSON.parse(heard.message.content), { moved: 'd-picked' }, 'it hears where it goes, and is still here');

  command({ type: 'stop', moved: true });
  await settle(20, 1);
  assert.deepEqual(take(), [{ type: 'stopped' }], 'no goodbye: it has not stopped, it moved');
});
