// Every message path of the paper's Fig. 4, in real Chromium: server → client agent (through its
// proxy), client → server agent, server agent → client agent, client → client on one device (no
// server round trip) and client → client across devices. Relay (e2e/agents-war/agents/Relay.js) passes a
// request on and the answer back, so one ask shows both legs of a path; Questioner does the same with
// the library's own `ask`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, ask, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent, uniqueName } from './support.js';

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

  const start = agentStarter(started);

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

  // The page's WebSocket frames reach the test through the DevTools protocol, in order but a little
  // after the fact: a test looks for its frames by their (unique) content and waits for them.
  const framesWith = (d, text) => d.frames.filter((f) => JSON.stringify(f.frame).includes(text)).map((f) => ({ dir: f.dir, ...f.frame }));
  const isSend = (f) => f.dir === 'sent' && f.op === 'send';
  const isDeliver = (f) => f.dir === 'received' && f.op === 'deliver';
  const seen = (what, d, text, pred) => eventually(what, () => framesWith(d, text).find(pred), { timeout: 10_000 });

  test('server → client agent: the REST API asks an Echo on a device, through its proxy', async () => {
    const text = uniqueName('hello device');
    const { status, body } = await ask(echoA.aid, text);
    assert.equal(status, 200);
    assert.equal(body.performative, 'INFORM');
    assert.equal(body.sender, echoA.aid);
    assert.equal(body.content, text);
    await seen('the request delivered to A', a, text, (f) => isDeliver(f) && f.aid === echoA.aid && f.message.content === text);
    await seen("the Echo's answer sent from A", a, text, (f) => isSend(f) && f.message.sender === echoA.aid);
  });

  test('client agent → server agent, and server agent → client agent (Pong answers the Relay)', async () => {
    const text = uniqueName('ping');
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: pong.aid, content: text }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: pong.aid, content: 'pong' });
    // client → server: the Relay's REQUEST left the device for Pong ...
    const out = await seen('the Relay’s request to Pong sent from A', a, text,
      (f) => isSend(f) && f.message.sender === relayA.aid && f.message.receivers.includes(pong.aid) && f.message.content === text);
    // ... and server agent → client agent: Pong's INFORM came back to the Relay through its proxy.
    const conversation = out.message.conversationId;
    await seen('Pong’s answer delivered to the Relay on A', a, conversation,
      (f) => isDeliver(f) && f.aid === relayA.aid && f.message.sender === pong.aid && f.message.content === 'pong');
  });

  test('client → client on the same device: handed over in the page, the server never sees it', async () => {
    const text = uniqueName('stay local');
    const handledBefore = await handledOnPage(a.page, echoA.aid);
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: echoA.aid, content: text }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: echoA.aid, content: text });
    // The Relay's answer to the asker is the last frame of this exchange; once it is seen, every
    // frame before it has been seen too.
    await seen('the Relay’s answer sent from A', a, text, (f) => isSend(f) && f.message.sender === relayA.aid);
    await new Promise((r) => setTimeout(r, 300)); // and anything a wrong implementation sent after it
    // Between the request coming in and the answer going out, nothing about it crossed the socket:
    // neither Relay → Echo nor Echo → Relay.
    const frames = framesWith(a, text).filter((f) => f.op === 'send' || f.op === 'deliver');
    assert.deepEqual(frames.map((f) => `${f.dir} ${f.op}: ${f.message.sender ?? 'REST'} → ${f.message.receivers}`), [
      `received deliver: REST → ${relayA.aid}`,
      `sent send: ${relayA.aid} → ${body.receivers[0]}`,
    ]);
    assert.deepEqual(framesWith(b, text), [], 'device B saw nothing of it');
    // ... yet the Echo did handle it (the page's table counts its messages).
    await a.page.waitForFunction(([aid, n]) => {
      const row = document.querySelector(`#agents tr[data-aid="${aid}"]`);
      return row && Number(row.cells[3].textContent) > n;
    }, [echoA.aid, handledBefore], { timeout: 10_000 });
  });

  test('client → client across devices: a Relay on A asks an Echo on B', async () => {
    const text = uniqueName('cross');
    const { status, body } = await ask(relayA.aid, JSON.stringify({ to: echoB.aid, content: text }));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body.content), { via: relayA.aid, from: echoB.aid, content: text });
    await seen('A sent it to the server', a, text, (f) => isSend(f) && f.message.sender === relayA.aid && f.message.receivers.includes(echoB.aid));
    await seen('B got it from the server', b, text, (f) => isDeliver(f) && f.aid === echoB.aid && f.message.sender === relayA.aid);
    await seen('B answered through the server', b, text, (f) => isSend(f) && f.message.sender === echoB.aid && f.message.receivers.includes(relayA.aid));
    await seen('A got the answer', a, text, (f) => isDeliver(f) && f.aid === relayA.aid && f.message.sender === echoB.aid);
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

  test("a client agent's ask: answered by a server agent and by a client agent on another device; 504 without an answer", async () => {
    const questioner = await start('Questioner', 'questioner-a', { device: a.id });
    const asked = async (question) => {
      const { status, body } = await ask(questioner.aid, JSON.stringify(question), { awaitReplyMs: 15_000 });
      assert.equal(status, 200);
      return { performative: body.performative, ...JSON.parse(body.content) };
    };
    assert.deepEqual(await asked({ to: pong.aid, content: 'ping' }), { performative: 'INFORM', from: pong.aid, content: 'pong' });
    const text = uniqueName('asked across devices');
    assert.deepEqual(await asked({ to: echoB.aid, content: text }), { performative: 'INFORM', from: echoB.aid, content: text });
    const question = await seen('the question sent from A', a, text, (f) => isSend(f) && f.message.sender === questioner.aid);
    assert.equal(question.message.replyTo, questioner.aid);
    assert.match(question.message.replyWith, /^ask-[0-9a-f]{24}$/);
    await seen("Echo B's answer delivered to the Questioner", a, question.message.replyWith,
      (f) => isDeliver(f) && f.aid === questioner.aid && f.message.inReplyTo === question.message.replyWith);
    // A Relay ignores all but REQUESTs: no answer comes.
    const silent = await asked({ to: relayB.aid, performative: 'INFORM', content: 'no answer', timeoutMs: 300 });
    assert.equal(silent.performative, 'FAILURE');
    assert.equal(silent.status, 504);
    assert.match(silent.message, /no reply from .*relay-b.* within 300 ms/);
  });
});

/** Messages handled by `aid` as the host page's table shows them. */
function handledOnPage(page, aid) {
  return page.evaluate((id) => Number(document.querySelector(`#agents tr[data-aid="${id}"]`)?.cells[3].textContent ?? 0), aid);
}
