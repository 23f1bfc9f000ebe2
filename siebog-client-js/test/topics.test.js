// The topics client (src/topics.js): the messages it asks topics@ with, and how it publishes. The
// real topics agent answers in e2e/topics.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '../src/topics.js';

/** An agent whose ask answers INFORM `content` and whose send is recorded. */
function agentAnswering(content) {
  const agent = {
    aid: 'reader@lab',
    asked: [],
    sent: [],
    ask(msg, options) {
      agent.asked.push({ msg, options });
      return Promise.resolve({ performative: 'INFORM', sender: 'topics@lab', content });
    },
    send(msg) {
      agent.sent.push(msg);
      return Promise.resolve();
    },
  };
  return agent;
}

test('subscribing asks topics of the agent’s platform, in JSON, with the group when given', async () => {
  const agent = agentAnswering('{}');
  const topics = new Topics(agent);
  await topics.subscribe('news', { group: 'readers' });
  await topics.subscribe('weather');
  await topics.unsubscribe('news');
  assert.deepEqual(agent.asked.map((a) => a.msg.receivers[0]), ['topics@lab', 'topics@lab', 'topics@lab']);
  assert.equal(agent.asked[0].msg.ontology, 'siebog-topics');
  assert.deepEqual(agent.asked.map((a) => JSON.parse(a.msg.content)), [
    { action: 'subscribe', topic: 'news', group: 'readers' },
    { action: 'subscribe', topic: 'weather' },
    { action: 'unsubscribe', topic: 'news' },
  ]);
});

test('subscriptions resolves with the list; a refusal rejects with its status', async () => {
  const listing = new Topics(agentAnswering('{"subscriptions": [{"topic": "news", "group": "g"}]}'));
  assert.deepEqual(await listing.subscriptions(), [{ topic: 'news', group: 'g' }]);
  const refusing = {
    aid: 'reader@lab',
    ask: () => Promise.resolve({ performative: 'FAILURE', content: '{"status": 404, "error": "agent reader@lab does not subscribe to topic \'x\'"}' }),
  };
  await assert.rejects(new Topics(refusing).unsubscribe('x'), (e) => e.status === 404 && /does not subscribe/.test(e.message));
});

test('publishing sends to the topic’s AID on the agent’s platform, besides the message’s own receivers', async () => {
  const agent = agentAnswering('{}');
  const topics = new Topics(agent);
  assert.equal(topics.aid('news'), 'topic:news@lab');
  await topics.publish('news', { performative: 'INFORM', content: 'hello' });
  await topics.publish('news', { performative: 'INFORM', content: 'cc', receivers: ['editor@lab'] });
  assert.deepEqual(agent.sent, [
    { performative: 'INFORM', content: 'hello', receivers: ['topic:news@lab'] },
    { performative: 'INFORM', content: 'cc', receivers: ['topic:news@lab', 'editor@lab'] },
  ]);
  assert.throws(() => topics.aid(''), TypeError);
});
