// Devices going away and agents failing: a closed page's agents start again on the remaining
// devices and messages sent to them meanwhile are answered; a Faulty agent that throws hurts
// nobody else.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, agents, api, ask, devices, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent, uniqueName } from './support.js';

describe('devices leaving and agents failing', () => {
  let browser;
  let a;
  let b;
  let c;
  const started = [];

  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'e2e A' });
    b = await openDevice(browser, { cu: 100, label: 'e2e B' });
    c = await openDevice(browser, { cu: 100, label: 'e2e C' });
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    for (const d of [a, b, c]) await d?.close();
    await browser?.close();
  });

  test('a closed page: its agents start again on the other devices and messages to them are answered', async () => {
    const moving = [];
    for (let i = 0; i < 6; i++) moving.push(await start('Echo', `mover-${i}`, { device: c.id }));
    const staying = await start('Echo', 'stayer', { device: a.id });
    for (const { aid } of moving) assert.equal((await ask(aid, 'before')).body.content, 'before');
    assert.equal((await devices())[c.id].agents, 6);

    // Close the tab, and at once ask one of its agents: the ask waits on the proxy while the agent moves.
    await c.close();
    const during = ask(moving[0].aid, 'during the move', { awaitReplyMs: 30_000 });
    // A plain post to another of them is admitted too (202), not refused while it has no device.
    const { status: posted } = await api('POST', '/messages', { performative: 'INFORM', receivers: [moving[1].aid], content: 'x' });
    assert.equal(posted, 202, 'a message to a moving agent is admitted, not refused');

    const answer = await during;
    assert.equal(answer.status, 200, 'the message sent during the move was answered');
    assert.equal(answer.body.content, 'during the move');
    assert.equal(answer.body.sender, moving[0].aid);

    const listed = await eventually('device C gone and its 6 agents on A and B', async () => {
      const now = await devices();
      return !now[c.id] && now[a.id]?.agents + now[b.id]?.agents === 7 ? now : null;
    }, { timeout: 30_000 });
    assert.deepEqual(Object.keys(listed).sort(), [a.id, b.id].sort());
    const where = Object.fromEntries((await agents()).map((x) => [x.aid, x.location]));
    for (const { aid } of moving) assert.ok([a.id, b.id].includes(where[aid]), `${aid} runs on A or B, not ${where[aid]}`);
    assert.equal(where[staying.aid], a.id, 'an agent of a device that stayed did not move');

    // After the move every one of them answers, and the pages show them.
    const after = await Promise.all(moving.map(({ aid }) => ask(aid, `after ${aid}`, { awaitReplyMs: 15_000 })));
    after.forEach(({ status, body }, i) => {
      assert.equal(status, 200);
      assert.equal(body.content, `after ${moving[i].aid}`);
    });
    const shown = async (d) => Number(await d.page.getByTestId('agent-count').textContent());
    await eventually('the pages to show 7 agents between them', async () => (await shown(a)) + (await shown(b)) === 7,
      { timeout: 15_000 });
    // The plain post sent during the move was delivered too, to the agent's new device.
    const host = where[moving[1].aid] === a.id ? a : b;
    assert.ok(host.frames.some(({ dir, frame }) => dir === 'received' && frame.op === 'deliver' && frame.aid === moving[1].aid
      && frame.message.content === 'x'), `the message posted during the move reached ${moving[1].aid} on ${host.id}`);
  });

  test('Faulty: a failing onStart is a 400 and leaves nothing behind', async () => {
    const name = uniqueName('faulty-start');
    const { status, body } = await api('POST', '/agents', { agentClass: 'Faulty', name, args: { failStart: 'true' }, device: a.id });
    assert.equal(status, 400);
    assert.match(body.error, /failStart was requested/);
    assert.ok(!(await agents()).some((x) => x.aid.startsWith(`${name}@`)), 'the failed agent is not listed');
    // Its name is free again.
    const again = await start('Faulty', 'faulty-retry', { device: a.id });
    assert.equal(again.location, a.id);
  });

  test('Faulty: a message that makes it throw goes unanswered, the next one is answered, others go on', async () => {
    const faulty = await start('Faulty', 'faulty', { device: a.id });
    const other = await start('Echo', 'bystander', { device: b.id });
    const neighbour = await start('Echo', 'neighbour', { device: a.id });
    const idsBefore = [a.id, b.id];

    const [boom, meanwhile] = await Promise.all([
      ask(faulty.aid, 'boom', { awaitReplyMs: 2000 }),
      ask(other.aid, 'still here', { awaitReplyMs: 10_000 }),
    ]);
    assert.equal(boom.status, 504, 'the message it threw on has no answer');
    assert.equal(meanwhile.status, 200);
    assert.equal(meanwhile.body.content, 'still here');

    const next = await ask(faulty.aid, 'fine now', { awaitReplyMs: 10_000 });
    assert.equal(next.status, 200, 'the agent handles its next message');
    assert.equal(next.body.content, 'fine now');
    assert.equal((await ask(neighbour.aid, 'same tab', { awaitReplyMs: 10_000 })).body.content, 'same tab');

    // The page reported the error and the devices stayed joined with the same ids.
    await a.page.getByTestId('log').getByText(`Agent ${faulty.aid} failed in message: Error: boom`).waitFor({ timeout: 10_000 });
    const listed = await devices();
    for (const id of idsBefore) assert.ok(listed[id], `${id} is still joined`);
    assert.equal(await a.page.getByTestId('device-id').textContent(), a.id);
    assert.equal((await agents()).find((x) => x.aid === faulty.aid)?.location, a.id, 'the Faulty agent still runs on A');
  });
});
