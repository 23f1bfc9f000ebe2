// The interaction protocols from a browser against server agents: a client agent runs a FIPA
// Request and a ballot (this.protocols) with the examples' Pong, a Java agent that knows nothing
// of protocols and simply answers (Contract Net both ways is in e2e/book-trading.test.js).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, ask, launchBrowser, noDevicesLeft, openDevice, stopAgent } from './support.js';

describe('interaction protocols between a client agent and server agents', () => {
  let browser;
  let a;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'protocols' });
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await a?.close();
    await browser?.close();
  });

  const order = async (agent, what) => {
    const { status, body } = await ask(agent, JSON.stringify(what), { awaitReplyMs: 15_000 });
    assert.equal(status, 200, JSON.stringify(body));
    return { performative: body.performative, result: JSON.parse(body.content) };
  };

  test('a FIPA request and a ballot run from a browser against Java agents', async () => {
    const chair = await start('Chair', 'chair', { device: a.id });
    const pongs = [await start('Pong', 'voter'), await start('Pong', 'voter')];
    assert.deepEqual(await order(chair.aid, { do: 'request', to: pongs[0].aid }), { performative: 'INFORM', result: 'pong' });
    const ballot = await order(chair.aid, { do: 'vote', voters: [...pongs.map((p) => p.aid), 'nobody@siebog'], rule: 'MAJORITY' });
    assert.deepEqual(ballot, { performative: 'INFORM', result: { winner: 'pong', tally: { pong: 2 }, voters: 3, votes: 2 } },
      'an unreachable voter abstains; two of three is a majority');
    const refused = await order(chair.aid, { do: 'request', to: 'nobody@siebog' });
    assert.equal(refused.performative, 'FAILURE');
    assert.equal(refused.result.status, 502);
    assert.match(refused.result.message, /nobody@siebog answered FAILURE: not delivered/);
  });
});
