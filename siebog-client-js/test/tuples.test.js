// The tuple space's client (src/tuples.js): the messages it asks tuples@ with, and what it makes of
// the answers. The real space answers in e2e/tuples.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TupleSpace } from '../src/tuples.js';

function agentAnswering(performative, content) {
  const agent = {
    aid: 'worker@lab',
    asked: [],
    ask(msg, options) {
      agent.asked.push({ msg, options });
      return Promise.resolve({ performative, sender: 'tuples@lab', content });
    },
  };
  return agent;
}

test('each operation asks tuples of the agent’s platform; a wait asks for longer than it waits', async () => {
  const agent = agentAnswering('INFORM', '{"tuple": ["job", "7"]}');
  const space = new TupleSpace(agent);
  await space.out(['job', '7'], { leaseMs: 60_000 });
  assert.deepEqual(await space.rdp(['job', null]), ['job', '7']);
  assert.deepEqual(await space.inp(['job', null]), ['job', '7']);
  assert.deepEqual(await space.in(['job', null], { timeoutMs: 5_000 }), ['job', '7']);
  assert.deepEqual(agent.asked.map((a) => JSON.parse(a.msg.content)), [
    { action: 'out', fields: ['job', '7'], leaseMs: 60_000 },
    { action: 'rdp', template: ['job', null] },
    { action: 'inp', template: ['job', null] },
    { action: 'in', template: ['job', null], timeoutMs: 5_000 },
  ]);
  assert.deepEqual(agent.asked.map((a) => a.msg.receivers[0]), ['tuples@lab', 'tuples@lab', 'tuples@lab', 'tuples@lab']);
  assert.equal(agent.asked[3].options.timeoutMs, 15_000);
});

test('none found is null; a refusal rejects with its status', async () => {
  assert.equal(await new TupleSpace(agentAnswering('INFORM', '{"tuple": null}')).rd(['x'], { timeoutMs: 10 }), null);
  const refusing = new TupleSpace(agentAnswering('FAILURE', '{"status": 400, "error": "a tuple has 1 to 16 fields; got 0"}'));
  await assert.rejects(refusing.out([]), (e) => e.status === 400 && /1 to 16 fields/.test(e.message));
});
