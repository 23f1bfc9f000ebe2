// The directory facilitator's client (src/df.js): the messages it asks df with, and what it makes
// of the answers. The real df answers in e2e/directory.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DirectoryFacilitator } from '../src/df.js';
import { SiebogError } from '../src/session.js';

/** An agent whose ask answers with `answer` and keeps the question. */
function agentAnswering(performative, content) {
  const agent = {
    aid: 'buyer@lab',
    asked: [],
    ask(msg, options) {
      agent.asked.push({ msg, options });
      return Promise.resolve({ performative, sender: 'df@lab', content });
    },
  };
  return agent;
}

test('each action is a REQUEST to df of the agent’s platform, in JSON, and its INFORM is the result', async () => {
  const entry = { agent: 'buyer@lab', service: { type: 't', name: 'n', protocols: [], ontologies: [], languages: [], properties: {} } };
  const agent = agentAnswering('INFORM', JSON.stringify({ entry }));
  const df = new DirectoryFacilitator(agent);
  assert.deepEqual(await df.register({ type: 't', name: 'n' }, { leaseMs: 60_000 }), entry);
  const { msg, options } = agent.asked[0];
  assert.deepEqual(msg, {
    performative: 'REQUEST', receivers: ['df@lab'], language: 'json', ontology: 'siebog-df',
    content: '{"action":"register","service":{"type":"t","name":"n"},"leaseMs":60000}',
  });
  assert.equal(options.timeoutMs, 10_000);

  const searching = agentAnswering('INFORM', JSON.stringify({ entries: [entry], more: true }));
  assert.deepEqual(await new DirectoryFacilitator(searching).search({ type: 't' }, { limit: 1, after: entry }), { entries: [entry], more: true });
  assert.deepEqual(JSON.parse(searching.asked[0].msg.content), { action: 'search', template: { type: 't' }, limit: 1, after: entry });
});

test('a FAILURE or NOT_UNDERSTOOD rejects with its status and error; content that is not JSON with 502', async () => {
  const failing = new DirectoryFacilitator(agentAnswering('FAILURE', '{"status": 404, "error": "agent buyer@lab has no service named \'n\'"}'));
  await assert.rejects(failing.deregister('n'), (e) => e instanceof SiebogError && e.status === 404 && /no service named 'n'/.test(e.message));
  const confused = new DirectoryFacilitator(agentAnswering('NOT_UNDERSTOOD', '{"status": 400, "error": "\\"action\\" must be register, ..."}'));
  await assert.rejects(confused.search(), (e) => e.status === 400);
  const garbled = new DirectoryFacilitator(agentAnswering('INFORM', 'not json'));
  await assert.rejects(garbled.search(), (e) => e.status === 502 && /not JSON/.test(e.message));
});
