// The directory facilitator from browsers: a client agent registers through this.df (df@siebog),
// searches what server agents registered, hears of changes it subscribed to, is refused what it may not do, keeps its entry when its
// device closes and it moves, and loses it when it is stopped. GET /api/services shows it all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, agents, api, ask, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent } from './support.js';

describe('the directory facilitator from client agents', () => {
  let browser;
  let a;
  let b;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'df A' });
    b = await openDevice(browser, { cu: 100, label: 'df B' });
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
  const services = async (query) => (await api('GET', `/services?${query}`)).body;

  test('register, find server and client entries alike, refusals, survive a move, gone when stopped', async () => {
    const yellow = await start('Yellow', 'yellow', { device: a.id });
    const watcher = await start('Yellow', 'watcher', { device: b.id });
    const subscribed = await order(watcher.aid, { do: 'subscribe', template: { type: 'e2e-df' } });
    assert.match(subscribed.result, /^df-subscription-/);
    const registered = await order(yellow.aid, {
      do: 'register', service: { type: 'e2e-df', name: 'browser-books', protocols: ['fipa-contract-net'], properties: { where: 'browser' } },
    });
    assert.equal(registered.performative, 'INFORM');
    assert.equal(registered.result.agent, yellow.aid);

    // A server agent registers through df@siebog too (here by a message posted in its name).
    const server = await start('Pong', 'df-pong');
    const { status } = await api('POST', '/messages?awaitReplyMs=10000', {
      performative: 'REQUEST', sender: server.aid, receivers: ['df@siebog'],
      content: JSON.stringify({ action: 'register', service: { type: 'e2e-df', name: 'server-books' }, leaseMs: 60_000 }),
    });
    assert.equal(status, 200);

    const found = await order(yellow.aid, { do: 'search', template: { type: 'e2e-df' } });
    assert.deepEqual(found.result.entries.map((e) => e.agent).sort(), [server.aid, yellow.aid].sort());
    assert.equal(found.result.more, false);
    const onlyBrowsers = await order(yellow.aid, { do: 'search', template: { type: 'e2e-df', properties: { where: 'browser' } } });
    assert.deepEqual(onlyBrowsers.result.entries.map((e) => e.service.name), ['browser-books']);

    const refused = await order(yellow.aid, { do: 'register', service: { type: 'e2e-df', name: 'short' }, leaseMs: 10 });
    assert.equal(refused.performative, 'FAILURE');
    assert.equal(refused.result.status, 400);
    assert.match(refused.result.message, /siebog\.df\.max-lease-ms/);
    const unknown = await order(yellow.aid, { do: 'deregister', name: 'never-registered' });
    assert.equal(unknown.result.status, 404);

    // Its device closes: the agent starts again on B, and its entry stays.
    await a.close();
    a = null;
    await eventually('the Yellow agent on device B', async () => (await agents()).find((x) => x.aid === yellow.aid)?.location === b.id);
    assert.deepEqual((await services('type=e2e-df&name=browser-books')).map((e) => e.agent), [yellow.aid]);
    const again = await order(yellow.aid, { do: 'modify', service: { type: 'e2e-df', name: 'browser-books', properties: { where: 'B' } } });
    assert.equal(again.result.service.properties.where, 'B');

    const heard = await eventually('the watcher heard of the changes', async () => {
      const { result } = await order(watcher.aid, { do: 'heard' });
      return result.length >= 3 ? result : null;
    });
    assert.deepEqual(heard, ['registered browser-books', 'registered server-books', 'modified browser-books']);

    await stopAgent(yellow.aid);
    assert.deepEqual((await services('type=e2e-df')).map((e) => e.agent), [server.aid], 'a stopped client agent’s entries go');
    await stopAgent(server.aid);
    assert.deepEqual(await services('type=e2e-df'), []);
  });
});
