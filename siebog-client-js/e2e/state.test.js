// Agent state in Cassandra, seen from the browser: a device closed mid-computation, its agent
// resumes on another device from its last acknowledged save; state survives two moves; a state
// over the size limit is refused and changes nothing. Needs a node with a state store
// (launcher/browser-tests.sh gives it a Cassandra of its own).
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { agentStarter, agents, api, ask, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent } from './support.js';

/** Primes below n by a sieve: what Primes.js must answer. */
function primesBelow(n) {
  const composite = new Uint8Array(n);
  let count = 0;
  for (let i = 2; i < n; i++) {
    if (composite[i]) continue;
    count++;
    for (let j = i * i; j < n; j += i) composite[j] = 1;
  }
  return count;
}

/** Starts recording the page's `statesaved` events (the Device's, through window.siebogDevice). */
function recordSaves(device) {
  return device.page.evaluate(() => {
    window.savedStates = [];
    window.siebogDevice.addEventListener('statesaved', (e) => window.savedStates.push(e.detail));
  });
}

const savesOf = (device, aid) => device.page.evaluate((id) => window.savedStates.filter((s) => s.aid === id), aid);

/** The highest version a device received in a stateSaved frame for `aid` (its acknowledged saves). */
function lastAckedFrame(device, aid) {
  return Math.max(0, ...device.frames.filter(({ dir, frame }) => dir === 'received' && frame.op === 'stateSaved' && frame.aid === aid)
    .map(({ frame }) => frame.version));
}

/** The start frame a device received for `aid`. */
const startFrame = (device, aid) => device.frames.find(({ dir, frame }) => dir === 'received' && frame.op === 'start' && frame.aid === aid)?.frame;

/**
 * Waits until a device has acknowledged every delivery to `aid` it received: a delivery not yet
 * acknowledged when its device closes is delivered again on the next one (at least once), and a
 * repeated save request would save again.
 */
function allAcknowledged(device, aid) {
  const highest = (dir, op) => Math.max(0, ...device.frames.filter(({ dir: d, frame }) => d === dir && frame.op === op && frame.aid === aid)
    .map(({ frame }) => frame.seq));
  return eventually(`${device.id} to acknowledge every delivery to ${aid}`,
    () => highest('sent', 'ack') >= highest('received', 'deliver'), { timeout: 10_000, every: 20 });
}

async function locationOf(aid) {
  return (await agents()).find((x) => x.aid === aid)?.location;
}

/** Waits until `aid` runs on one of `candidates` (after its device closed) and returns that one. */
async function movedTo(aid, candidates) {
  const id = await eventually(`${aid} to start again on another device`, async () => {
    const where = await locationOf(aid);
    return candidates.some((d) => d.id === where) ? where : null;
  }, { timeout: 30_000 });
  return candidates.find((d) => d.id === id);
}

/** Asks a Keeper and parses its answer. */
async function keeper(aid, request) {
  const { status, body } = await ask(aid, JSON.stringify(request), { awaitReplyMs: 20_000 });
  assert.equal(status, 200, `${aid} answered ${JSON.stringify(request).slice(0, 60)}`);
  return { performative: body.performative, ...JSON.parse(body.content) };
}

describe('agent state', () => {
  let browser;
  const started = [];
  const opened = [];
  const start = agentStarter(started);
  const open = async (label) => {
    const device = await openDevice(browser, { cu: 100, label });
    opened.push(device);
    await recordSaves(device);
    return device;
  };

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
  });

  // Each test has devices and agents of its own: an agent moving must find only that test's devices.
  afterEach(async () => {
    for (const aid of started.splice(0)) await stopAgent(aid);
    for (const d of opened.splice(0)) await d.close().catch(() => {});
    await noDevicesLeft();
  });

  after(() => browser?.close());

  test('a device closed mid-computation: its agent resumes elsewhere from its last acknowledged save', async (t) => {
    const [a, b, c] = [await open('e2e state A'), await open('e2e state B'), await open('e2e state C')];
    const below = 8_000_000;
    const expected = primesBelow(below);
    const primes = await start('Primes', 'primes', { device: a.id });

    // 40 chunks of 200,000 numbers, each saved before the next.
    const answer = ask(primes.aid, JSON.stringify({ below, chunk: 200_000 }), { awaitReplyMs: 180_000 });
    await eventually('3 saves acknowledged on A', async () => (await savesOf(a, primes.aid)).length >= 3, { timeout: 60_000, every: 50 });
    const heard = Math.max(...(await savesOf(a, primes.aid)).map((s) => s.version));
    await a.close();
    const acked = Math.max(heard, lastAckedFrame(a, primes.aid)); // any that arrived just before the close too
    assert.ok(heard >= 3, `the page heard of ${heard} acknowledged saves`);

    const { status, body } = await answer;
    assert.equal(status, 200, 'the request is answered after the move');
    assert.equal(body.sender, primes.aid);
    const result = JSON.parse(body.content);
    assert.equal(result.count, expected, `primes below ${below}`);
    assert.ok(result.resumedFrom, `the copy that answered resumed from saved state, not from scratch: ${body.content}`);
    assert.ok(result.resumedFrom.next < below, `A was closed mid-computation (resumed at ${result.resumedFrom.next})`);
    assert.ok(result.resumedFrom.version > 0);
    assert.ok(result.resumedFrom.version >= acked,
      `no acknowledged state is lost: resumed from version ${result.resumedFrom.version}, A had ${acked} acknowledged`);

    const host = await movedTo(primes.aid, [b, c]);
    t.diagnostic(`A had ${acked} saves acknowledged when it closed; ${host.id} resumed from version ${result.resumedFrom.version} at ${result.resumedFrom.next} of ${below}`);
    const frame = startFrame(host, primes.aid);
    assert.equal(frame.version, result.resumedFrom.version, 'the start frame carried that version');
    assert.deepEqual(frame.state, { below, next: result.resumedFrom.next, count: frame.state.count });
    assert.ok(frame.state.count > 0);
    const saves = await savesOf(host, primes.aid);
    assert.ok(saves.length > 0 && saves.every((s) => s.version > frame.version), 'the new device saved on from there');
  });

  test("an agent's state survives two moves", async () => {
    const devices = [await open('e2e move 1'), await open('e2e move 2'), await open('e2e move 3')];
    const kept = await start('Keeper', 'keeper', { device: devices[0].id });
    assert.deepEqual(await keeper(kept.aid, { show: true }), {
      performative: 'INFORM', state: null, version: 0, startedWith: { state: null, version: 0 },
    }, 'a new agent starts with no state');
    assert.equal((await keeper(kept.aid, { save: { moves: 0, notes: ['é', 1.5, null] } })).version, 1);

    let current = devices[0];
    let version = 1;
    const closed = new Set();
    for (let move = 1; move <= 2; move++) {
      await allAcknowledged(current, kept.aid);
      closed.add(current);
      await current.close();
      const rest = devices.filter((d) => !closed.has(d));
      current = await movedTo(kept.aid, rest);
      const shown = await keeper(kept.aid, { show: true });
      assert.deepEqual(shown.startedWith, { state: { moves: move - 1, notes: ['é', 1.5, null] }, version },
        `after move ${move} it started from its last saved state`);
      assert.equal(startFrame(current, kept.aid).version, version);
      const saved = await keeper(kept.aid, { save: { moves: move, notes: ['é', 1.5, null] } });
      assert.equal(saved.version, version + 1, 'and saves on from that version');
      version = saved.version;
    }
  });

  test('a client agent moves to another device through its saved state: by an admin, then by itself', async () => {
    const [a, b, c] = [await open('e2e moveTo A'), await open('e2e moveTo B'), await open('e2e moveTo C')];
    const kept = await start('Keeper', 'mover', { device: a.id });
    assert.equal((await keeper(kept.aid, { save: { step: 1 } })).version, 1);

    // An admin moves it to B; questions asked meanwhile are answered there, by the copy that started from version 1.
    const moving = api('POST', `/agents/${kept.aid}/move`, { device: b.id });
    const during = [keeper(kept.aid, { show: true }), keeper(kept.aid, { show: true })];
    const moved = await moving;
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(moved.body, { aid: kept.aid, agentClass: 'Keeper', location: b.id });
    for (const shown of await Promise.all(during)) {
      assert.equal(shown.version, 1, 'no question was lost or answered from scratch');
    }
    assert.equal(await locationOf(kept.aid), b.id);
    const stopOnA = a.frames.find(({ dir, frame }) => dir === 'received' && frame.op === 'stop' && frame.aid === kept.aid)?.frame;
    assert.deepEqual(stopOnA, { op: 'stop', aid: kept.aid, moved: true }, 'A ended it as moved (no onStop)');
    assert.deepEqual((await keeper(kept.aid, { show: true })).startedWith, { state: { step: 1 }, version: 1 });
    assert.equal(startFrame(b, kept.aid).version, 1);

    // It moves itself to C: it hears where it goes, and carries on there from what it saved.
    assert.equal((await keeper(kept.aid, { save: { step: 2 } })).version, 2);
    const agreed = await keeper(kept.aid, { moveTo: c.id });
    assert.deepEqual(agreed, { performative: 'AGREE', location: c.id });
    await movedTo(kept.aid, [c]);
    assert.deepEqual((await keeper(kept.aid, { show: true })).startedWith, { state: { step: 2 }, version: 2 });
    await allAcknowledged(b, kept.aid); // B acknowledged what it handled before it ended the agent: none is handled twice on C

    // Refused, and nothing changes: the device it is on, a device that is not there, a node for a client agent.
    assert.deepEqual(await keeper(kept.aid, { moveTo: c.id }), {
      performative: 'REFUSE', status: 400, error: `${kept.aid} is on device ${c.id} already`,
    });
    const nowhere = await api('POST', `/agents/${kept.aid}/move`, { device: 'd-00000000' });
    assert.equal(nowhere.status, 400);
    assert.match(nowhere.body.error, /there is no device 'd-00000000'/);
    const toNode = await api('POST', `/agents/${kept.aid}/move`, { node: 'node1' });
    assert.equal(toNode.status, 400);
    assert.match(toNode.body.error, /client agent moves between devices/);
    assert.equal(await locationOf(kept.aid), c.id);
    assert.deepEqual((await keeper(kept.aid, { show: true })).state, { step: 2 });
  });

  test('saveState of a state over maxStateBytes rejects with 413 before sending and changes nothing', async () => {
    const a = await open('e2e big A');
    const b = await open('e2e big B');
    const kept = await start('Keeper', 'big', { device: a.id });
    const welcome = a.frames.find(({ frame }) => frame.op === 'welcome').frame;
    assert.equal(welcome.maxStateBytes, 65536);
    assert.equal((await keeper(kept.aid, { save: 'small' })).version, 1);

    const refused = await keeper(kept.aid, { saveBytes: welcome.maxStateBytes }); // 2 more bytes of quotes
    assert.deepEqual(refused, {
      performative: 'FAILURE', status: 413, error: `the state of ${kept.aid} is ${welcome.maxStateBytes + 2} bytes of JSON; at most ${welcome.maxStateBytes} are kept`,
    });
    assert.ok(!a.frames.some(({ dir, frame }) => dir === 'sent' && frame.op === 'saveState' && frame.state !== 'small'),
      'it never reached the server');
    assert.deepEqual(await keeper(kept.aid, { show: true }), {
      performative: 'INFORM', state: 'small', version: 1, startedWith: { state: null, version: 0 },
    });
    // Just under the limit is fine, and the refused save used no version up.
    assert.equal((await keeper(kept.aid, { saveBytes: welcome.maxStateBytes - 2 })).version, 2);

    // What Cassandra holds is what the next device gets.
    await allAcknowledged(a, kept.aid);
    await a.close();
    await movedTo(kept.aid, [b]);
    const shown = await keeper(kept.aid, { show: true });
    assert.equal(shown.startedWith.version, 2);
    assert.equal(shown.startedWith.state.length, welcome.maxStateBytes - 2);
  });
});
