// Topics from browsers: client agents subscribe through this.topics (topics@siebog), alone and in a
// group, beside a server agent; a client agent publishes and so does a REST caller; each subscriber
// gets every message in order (a group's members one each); a subscription survives its agent's
// move to another device and goes when the agent is stopped. GET /api/topics shows it all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, agents, api, ask, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent } from './support.js';

describe('topics between client agents and server agents', () => {
  let browser;
  let a;
  let b;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'topics A' });
    b = await openDevice(browser, { cu: 100, label: 'topics B' });
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await a?.close();
    await b?.close();
    await browser?.close();
  });

  const order = async (agent, what) => {
    const { status, body } = await ask(agent, JSON.stringify(what), { awaitReplyMs: 15_000 });
    assert.equal(status, 200, JSON.stringify(body));
    return { performative: body.performative, result: JSON.parse(body.content) };
  };
  const subscribers = async (topic) => (await api('GET', `/topics/${topic}`)).body;
  const numbers = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

  test('subscribe, publish from a browser and from REST, groups, refusals, survive a move, gone when stopped', async () => {
    const reader = await start('News', 'reader', { device: a.id });
    const memberA = await start('News', 'member', { device: a.id });
    const memberB = await start('News', 'member', { device: b.id });
    const publisher = await start('News', 'publisher', { device: b.id });
    const counter = await start('Counter', 'topic-counter');
    for (const [agent, group] of [[reader.aid], [memberA.aid, 'pair'], [memberB.aid, 'pair']]) {
      assert.equal((await order(agent, { do: 'subscribe', topic: 'e2e-news', group })).performative, 'INFORM');
    }
    // A server agent subscribes through topics@siebog too (here by a message posted in its name).
    const subscribed = await api('POST', '/messages?awaitReplyMs=10000', {
      performative: 'REQUEST', sender: counter.aid, receivers: ['topics@siebog'],
      content: JSON.stringify({ action: 'subscribe', topic: 'e2e-news' }),
    });
    assert.equal(subscribed.body.performative, 'INFORM', JSON.stringify(subscribed.body));
    assert.deepEqual((await subscribers('e2e-news')).map((s) => s.agent).sort(), [reader.aid, memberA.aid, memberB.aid, counter.aid].sort());
    assert.deepEqual((await order(memberA.aid, { do: 'subscriptions' })).result, [{ topic: 'e2e-news', group: 'pair' }]);

    assert.equal((await order(publisher.aid, { do: 'publish', topic: 'e2e-news', count: 20 })).result, 20);
    const heard = await eventually('the reader heard all 20', async () => {
      const { result } = await order(reader.aid, { do: 'heard' });
      return result.length >= 20 ? result : null;
    });
    assert.deepEqual(heard, numbers(1, 20).map((n) => `e2e-news ${n}`), 'in publish order');
    const shares = await eventually('the pair heard 20 between them', async () => {
      const both = [(await order(memberA.aid, { do: 'heard' })).result, (await order(memberB.aid, { do: 'heard' })).result];
      return both[0].length + both[1].length >= 20 ? both : null;
    });
    assert.deepEqual(shares.map((s) => s.length), [10, 10], 'the members take turns');
    assert.deepEqual([...shares[0], ...shares[1]].sort(), numbers(1, 20).map((n) => `e2e-news ${n}`).sort());
    const report = await eventually('the server agent counted 20', async () => {
      const { body } = await ask(counter.aid, null, { performative: 'QUERY_REF' });
      return body.content.startsWith('handled=20 ') ? body.content : null;
    });
    assert.equal(report, 'handled=20 highest=20 gaps=0 repeats=0 outOfOrder=0');

    const fromRest = await api('POST', '/messages', { performative: 'INFORM', receivers: ['topic:e2e-news@siebog'], content: 'from-rest' });
    assert.equal(fromRest.status, 202);
    await eventually('the reader heard the REST publication', async () => (await order(reader.aid, { do: 'heard' })).result.includes('e2e-news from-rest'));

    const badName = await order(reader.aid, { do: 'subscribe', topic: 'two words' });
    assert.equal(badName.performative, 'FAILURE');
    assert.equal(badName.result.status, 400);
    assert.match(badName.result.message, /bad topic name/);
    const notSubscribed = await order(reader.aid, { do: 'unsubscribe', topic: 'never' });
    assert.equal(notSubscribed.result.status, 404);

    // Its device closes: the reader starts again on B, and its subscription stays.
    await a.close();
    a = null;
    await eventually('the reader on device B', async () => (await agents()).find((x) => x.aid === reader.aid)?.location === b.id);
    assert.ok((await subscribers('e2e-news')).some((s) => s.agent === reader.aid), 'subscribed after the move');
    await api('POST', '/messages', { performative: 'INFORM', receivers: ['topic:e2e-news@siebog'], content: 'after-the-move' });
    await eventually('the moved reader heard it', async () => (await order(reader.aid, { do: 'heard' })).result.includes('e2e-news after-the-move'));

    assert.equal((await order(memberB.aid, { do: 'unsubscribe', topic: 'e2e-news' })).performative, 'INFORM');
    await stopAgent(reader.aid);
    assert.deepEqual((await subscribers('e2e-news')).map((s) => s.agent).sort(), [memberA.aid, counter.aid].sort(),
      'unsubscribed, and a stopped client agent’s subscriptions go');
    const listed = (await api('GET', '/topics')).body.find((t) => t.topic === 'e2e-news');
    assert.equal(listed.subscribers, 2);
  });
});
