import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, attachRuntime, isAgentClass } from '../src/agent.js';
import { backoffDelay } from '../src/device.js';

function running(agent, aid = 'me@siebog') {
  const sent = [];
  attachRuntime(agent, { aid, send: async (m) => { sent.push(m); } });
  return sent;
}

test('send fills in the sender and validates', async () => {
  const agent = new Agent();
  const sent = running(agent);
  await agent.send({ performative: 'INFORM', receivers: ['you'], content: 'hi' });
  assert.deepEqual(sent, [{ performative: 'INFORM', sender: 'me@siebog', receivers: ['you@siebog'], content: 'hi' }]);
  assert.throws(() => agent.send({ performative: 'INFORM', receivers: ['you@siebog'], content: 42 }), { field: 'content' });
  assert.equal(agent.aid, 'me@siebog');
});

test('reply goes to replyTo, else sender, with conversationId and inReplyTo', async () => {
  const agent = new Agent();
  const sent = running(agent);
  const request = { performative: 'REQUEST', sender: 'c@siebog', replyTo: null, conversationId: 'tsp', replyWith: 'r7', content: 'x' };
  await agent.reply(request, 'INFORM', '{"ok":true}');
  await agent.reply({ ...request, replyTo: 'inbox@siebog' }, 'AGREE');
  assert.deepEqual(sent, [
    { performative: 'INFORM', sender: 'me@siebog', receivers: ['c@siebog'], content: '{"ok":true}', conversationId: 'tsp', inReplyTo: 'r7' },
    { performative: 'AGREE', sender: 'me@siebog', receivers: ['inbox@siebog'], conversationId: 'tsp', inReplyTo: 'r7' },
  ]);
  assert.throws(() => agent.reply({ performative: 'INFORM', sender: null, replyTo: null }, 'INFORM'), /neither replyTo nor sender/);
});

test('an agent that is not running yet cannot send', () => {
  assert.throws(() => new Agent().send({ performative: 'INFORM', receivers: ['a'] }), /not running yet/);
});

test('isAgentClass accepts subclasses only', () => {
  class Echo extends Agent {}
  assert.ok(isAgentClass(Echo));
  assert.ok(!isAgentClass(class {}));
  assert.ok(!isAgentClass({}));
  assert.ok(!isAgentClass(undefined));
});

test('reconnect backoff doubles from 1 s to a 30 s ceiling, with jitter', () => {
  assert.equal(backoffDelay(0, 0.999999), 1000);
  assert.equal(backoffDelay(0, 0), 500);
  assert.equal(backoffDelay(3, 0.999999), 8000);
  assert.equal(backoffDelay(10, 0.999999), 30000);
  assert.equal(backoffDelay(1000, 0), 15000);
});
