// Every message path of the paper's Fig. 4, in real Chromium: server → client agent (through its
// proxy), client → server agent, server agent → client agent, client → client on one device (no
// server round trip) and client → client across devices. Relay (webapp/agents/Relay.js) passes a
// request on and the answer back, so one ask shows both legs of a path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, launchBrowser, noDevicesLeft, openDevice, startAgent, stopAgent, uniqueName } from './support.js';

describe('messages in every direction of Fig. 4', () => {
  let browser;
  let a;
  let b;
  const started = [];
  let pong;
  let relayA;
  let echoA;
  let echoB;
  let relayB;

  const start = async (cls, prefix, options) => {
    const agent = await startAgent(cls, uniqueName(prefix), options);
    started.push(agent.aid);
    return agent;
  };

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'e2e A' });
    b = await openDevice(browser, { cu: 100, label: 'e2e B' });
    pong = await start('Pong', 'pong');
    relayA = await start('Relay', 'relay-a', { device: a.id });
    echoA = await start('Echo', 'echo-a', { device: a.id });
    echoB = await start('Echo', 'echo-b', { device: b.id });
    relayB = await start('Relay', 'relay-b', { device: b.id });
    assert.equal(pong.location, 'node1');
    assert.deepEqual([relayA.location, echoA.location, echoB.location, relayB.location], [a.id, a.id, b.id, b.id]);
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await a?.close();
    await b?.close();
    await browser?.close();
  });

  /** The frames device `d` exchanged since `mark` (an index into d.frames). */
  const since = (d, mark) => d.frames.slice(mark).map((f) => ({ dir: f.dir, ...f.frame }));
  const sends = (frames) => frames.filter((f) => f.dir === 'sent' && f.op === 'send').map((f) => f.message);
  const delivers = (frames) => frames.filter((f) => f.dir === 'received' && f.op === 'deliver');

  test('server → client agent: the REST API asks an Echo on a device, through its proxy', async () => {
    const mark = a.frames.length;
    const { status, body } = await ask(echoA.aid, 'hello device');
    assert.equal(status, 200);
    assert.equal(body.performative, 'INFORM');
    assert.equal(body.sender, echoA.aid);
    assert.equal(body.content, 'hello device');
    const deliver = delivers(since(a, mark)).find((f) => f.aid === echoA.aid);
    assert.ok(deliver, 'the request reached device A as a deliver frame');
    assert.equal(deliver.message.content, 'hello device');
  });

  test('client agent → server agent, and server agent → client agent (Pong answers the Relay)', async () => {
    const mark = a.frames.length;
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: pong.aid, content: 'ping' }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: pong.aid, content: 'pong' });
    const frames = since(a, mark);
    // client → server: the Relay's REQUEST left the device for Pong ...
    assert.ok(sends(frames).some((m) => m.sender === relayA.aid && m.receivers.includes(pong.aid) && m.content === 'ping'));
    // ... and server agent → client agent: Pong's INFORM came back to the Relay through its proxy.
    assert.ok(delivers(frames).some((f) => f.aid === relayA.aid && f.message.sender === pong.aid && f.message.content === 'pong'));
  });

  test('client → client on the same device: handed over in the page, the server never sees it', async () => {
    const markA = a.frames.length;
    const markB = b.frames.length;
    const handledBefore = await handledOnPage(a.page, echoA.aid);
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: echoA.aid, content: 'stay local' }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: echoA.aid, content: 'stay local' });
    const frames = since(a, markA);
    // Neither the request (Relay → Echo) nor the answer (Echo → Relay) crossed the WebSocket:
    assert.deepEqual(sends(frames).filter((m) => m.receivers.includes(echoA.aid) || m.sender === echoA.aid), []);
    assert.deepEqual(delivers(frames).filter((f) => f.aid === echoA.aid || f.message.sender === echoA.aid), []);
    // ... the only things device A sent the server for this ask are acks and the final answer:
    assert.deepEqual(sends(frames).map((m) => m.receivers[0]).filter((r) => !r.startsWith('reply-')), []);
    assert.equal(sends(since(b, markB)).length, 0);
    // ... yet the Echo did handle it (the page's table counts its messages).
    await a.page.waitForFunction(([aid, n]) => {
      const row = document.querySelector(`#agents tr[data-aid="${aid}"]`);
      return row && Number(row.cells[3].textContent) > n;
    }, [echoA.aid, handledBefore], { timeout: 10_000 });
  });

  test('client → client across devices: a Relay on A asks an Echo on B', async () => {
    const markA = a.frames.length;
    const markB = b.frames.length;
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: echoB.aid, content: 'cross' }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: echoB.aid, content: 'cross' });
    assert.ok(sends(since(a, markA)).some((m) => m.sender === relayA.aid && m.receivers.includes(echoB.aid)), 'A sent it to the server');
    assert.ok(delivers(since(b, markB)).some((f) => f.aid === echoB.aid && f.message.sender === relayA.aid), 'B got it from the server');
    assert.ok(sends(since(b, markB)).some((m) => m.sender === echoB.aid && m.receivers.includes(relayA.aid)), 'B answered through the server');
    assert.ok(delivers(since(a, markA)).some((f) => f.aid === relayA.aid && f.message.sender === echoB.aid), 'A got the answer');
  });

  test('a chain through both devices and the server: Relay B → Relay A → Pong and back', async () => {
    const inner = JSON.stringify({ to: pong.aid, content: 'deep' });
    const { status, body } = await ask(relayB.aid, JSON.stringify({ to: relayA.aid, content: inner }));
    assert.equal(status, 200);
    const outer = JSON.parse(body.content);
    assert.equal(outer.via, relayB.aid);
    assert.equal(outer.from, relayA.aid);
    assert.deepEqual(JSON.parse(outer.content), { via: relayA.aid, from: pong.aid, content: 'pong' });
  });

  test('many asks at once all come back, each with its own answer', async () => {
    const targets = [echoA, echoB];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(targets[i % 2].aid, `m${i}`, { awaitReplyMs: 15_000 })));
    results.forEach(({ status, body }, i) => {
      assert.equal(status, 200, `ask ${i}`);
      assert.equal(body.content, `m${i}`);
      assert.equal(body.sender, targets[i % 2].aid);
    });
  });
});

/** Messages handled by `aid` as the host page's table shows them. */
function handledOnPage(page, aid) {
  return page.evaluate((id) => Number(document.querySelector(`#agents tr[data-aid="${id}"]`)?.cells[3].textContent ?? 0), aid);
}
