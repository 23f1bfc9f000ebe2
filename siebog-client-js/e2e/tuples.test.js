// The tuple space from browsers: client agents write, read and take tuples through this.tuples
// (tuples@siebog), alongside what a server-side caller writes; a waiting in holds nothing and
// gets the tuple written later; racing takers on two devices take one tuple once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, api, ask, launchBrowser, noDevicesLeft, openDevice, stopAgent } from './support.js';

describe('the tuple space from client agents', () => {
  let browser;
  let a;
  let b;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'tuples A' });
    b = await openDevice(browser, { cu: 100, label: 'tuples B' });
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await a?.close();
    await b?.close();
    await browser?.close();
  });

  const order = async (agent, what, awaitReplyMs = 20_000) => {
    const { status, body } = await ask(agent, JSON.stringify(what), { awaitReplyMs });
    assert.equal(status, 200, JSON.stringify(body));
    return { performative: body.performative, result: JSON.parse(body.content) };
  };
  /** The space's agent asked directly, as a server-side caller would. */
  const space = async (action) => {
    const { status, body } = await api('POST', '/messages?awaitReplyMs=10000', {
      performative: 'REQUEST', receivers: ['tuples@siebog'], content: JSON.stringify(action),
    });
    assert.equal(status, 200, JSON.stringify(body));
    return JSON.parse(body.content);
  };

  test('out, rdp and inp between browsers and the server; a waiting in gets a later tuple; racers take it once', async () => {
    const first = await start('Tupler', 'tupler', { device: a.id });
    const second = await start('Tupler', 'tupler', { device: b.id });
    assert.equal((await order(first.aid, { do: 'out', fields: ['e2e-job', '1'] })).performative, 'INFORM');
    assert.deepEqual((await space({ action: 'rdp', template: ['e2e-job', null] })).tuple, ['e2e-job', '1'], 'the server sees what a browser wrote');
    await space({ action: 'out', fields: ['e2e-job', '2'] });
    assert.deepEqual((await order(second.aid, { do: 'inp', template: ['e2e-job', '2'] })).result, ['e2e-job', '2']);
    assert.deepEqual((await order(second.aid, { do: 'inp', template: ['e2e-job', null] })).result, ['e2e-job', '1']);
    assert.equal((await order(second.aid, { do: 'inp', template: ['e2e-job', null] })).result, null);

    const waiting = order(first.aid, { do: 'in', template: ['e2e-late', null], timeoutMs: 15_000 });
    await new Promise((r) => setTimeout(r, 500));
    await space({ action: 'out', fields: ['e2e-late', 'here'] });
    assert.deepEqual((await waiting).result, ['e2e-late', 'here']);

    const racers = [order(first.aid, { do: 'in', template: ['e2e-prize', null], timeoutMs: 3_000 }),
      order(second.aid, { do: 'in', template: ['e2e-prize', null], timeoutMs: 3_000 })];
    await new Promise((r) => setTimeout(r, 500));
    await space({ action: 'out', fields: ['e2e-prize', 'gold'] });
    const outcomes = (await Promise.all(racers)).map((o) => o.result);
    assert.equal(outcomes.filter((o) => o !== null).length, 1, JSON.stringify(outcomes));
    assert.deepEqual(outcomes.find((o) => o !== null), ['e2e-prize', 'gold']);

    const refused = await order(first.aid, { do: 'out', fields: [] });
    assert.equal(refused.performative, 'FAILURE');
    assert.equal(refused.result.status, 400);
  });
});
