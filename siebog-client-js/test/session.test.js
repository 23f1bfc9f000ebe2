import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AckTracker, RateMeter, SiebogError, splitReceivers, deviceSocketUrl, STOP_TIMEOUT_MS,
} from '../src/session.js';
import { fixture } from '../test-support/fake-session.js';

async function joined() {
  const f = fixture();
  const welcome = f.session.join(12.5, 'my laptop');
  f.session.receive({ op: 'welcome', device: 'd-1', platform: 'siebog', heartbeatMs: 5000, maxFrameBytes: 1000 });
  assert.equal((await welcome).device, 'd-1');
  f.take();
  return f;
}

function startAgent(f, aid, started = true) {
  f.session.receive({ op: 'start', aid, agentClass: 'Echo', module: '/siebog/agents/Echo.js', args: { a: '1' } });
  if (started) f.hosts.get(aid).onMessage({ type: 'started' });
  return f.hosts.get(aid);
}

test('join sends computeUnits and label, welcome resolves it', async () => {
  const f = fixture();
  const welcome = f.session.join(12.5, 'my laptop');
  assert.deepEqual(f.take(), [{ op: 'join', computeUnits: 12.5, label: 'my laptop' }]);
  f.session.receive({ op: 'welcome', device: 'd-9', platform: 'siebog', heartbeatMs: 5000, maxFrameBytes: 2048 });
  await welcome;
  assert.equal(f.session.deviceId, 'd-9');
  assert.equal(f.session.maxFrameBytes, 2048);
});

test('join sends no compute units unless some are claimed', () => {
  const f = fixture();
  f.session.join(null, 'tab');
  assert.deepEqual(f.take(), [{ op: 'join', label: 'tab' }]);
});

test("the node's challenge is answered with a solution before the welcome", async () => {
  const asked = [];
  const f = fixture({ solveChallenge: async (challenge) => { asked.push(challenge); return [7, 8]; } });
  const welcome = f.session.join(null);
  f.take();
  const challenge = { op: 'challenge', seed: '00'.repeat(16), puzzles: 2, zeroBits: 1 };
  f.session.receive(challenge);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(asked, [challenge]);
  assert.deepEqual(f.take(), [{ op: 'solution', nonces: [7, 8] }]);
  f.session.receive({ op: 'welcome', device: 'd-2', platform: 'siebog', computeUnits: 512.5, heartbeatMs: 5000 });
  assert.equal((await welcome).computeUnits, 512.5);
});

test('without a solver of its own the session answers on its thread, and right', async () => {
  const f = fixture();
  f.session.join(null);
  f.take();
  const seed = '5eb0600dc0ffee0123456789abcdef00';
  f.session.receive({ op: 'challenge', seed, puzzles: 2, zeroBits: 4 });
  await new Promise((r) => setImmediate(r));
  const [solution] = f.take();
  assert.equal(solution.op, 'solution');
  assert.equal(solution.nonces.length, 2);
});

test('a challenge that cannot be answered rejects the welcome; a refused answer too', async () => {
  const f = fixture({ solveChallenge: async () => { throw new Error('no Worker'); } });
  const welcome = f.session.join(null);
  f.session.receive({ op: 'challenge', seed: '00'.repeat(16), puzzles: 2, zeroBits: 1 });
  await assert.rejects(welcome, /no Worker/);

  const g = fixture({ solveChallenge: async () => [0, 0] });
  const refused = g.session.join(null);
  g.session.receive({ op: 'challenge', seed: '00'.repeat(16), puzzles: 2, zeroBits: 1 });
  await new Promise((r) => setImmediate(r));
  g.session.receive({ op: 'error', status: 403, error: 'join refused: the answer to the compute-unit challenge is wrong: nonce 0' });
  await assert.rejects(refused, { status: 403 });
});

test('a refused join rejects the welcome', async () => {
  const f = fixture();
  const welcome = f.session.join(0);
  f.session.receive({ op: 'error', status: 400, error: "'computeUnits' must be a number above 0" });
  await assert.rejects(welcome, { status: 400 });
});

test('start runs the module in a new host and answers started', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog', false);
  assert.deepEqual(host.commands, [{
    type: 'start', module: 'http://host:8080/siebog/agents/Echo.js', aid: 'e@siebog', args: { a: '1' }, state: null, version: 0,
  }]);
  assert.deepEqual(f.take(), []);
  host.onMessage({ type: 'started' });
  assert.deepEqual(f.take(), [{ op: 'started', aid: 'e@siebog' }]);
  assert.deepEqual(f.session.agentList(), [{ aid: 'e@siebog', agentClass: 'Echo', state: 'running', handled: 0 }]);
});

test('deliveries reach the agent in order; acks are coalesced per agent after handling', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.take();
  for (const seq of [1, 2, 3]) {
    f.session.receive({ op: 'deliver', aid: 'e@siebog', seq, message: { performative: 'INFORM', receivers: ['e@siebog'], content: `m${seq}` } });
  }
  assert.deepEqual(host.commands.slice(1).map((c) => c.seq), [1, 2, 3]);
  for (const seq of [1, 2, 3]) host.onMessage({ type: 'handled', seq });
  assert.deepEqual(f.take(), [], 'nothing before the flush');
  f.runTimers();
  assert.deepEqual(f.take(), [{ op: 'ack', aid: 'e@siebog', seq: 3 }]);
  assert.equal(f.session.agentList()[0].handled, 3);
});

test('a repeated seq is not handed to the agent again but is acknowledged', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.take();
  const message = { performative: 'INFORM', receivers: ['e@siebog'] };
  f.session.receive({ op: 'deliver', aid: 'e@siebog', seq: 1, message });
  host.onMessage({ type: 'handled', seq: 1 });
  f.session.receive({ op: 'deliver', aid: 'e@siebog', seq: 1, message });
  assert.equal(host.commands.filter((c) => c.type === 'deliver').length, 1);
  f.runTimers();
  assert.deepEqual(f.take(), [{ op: 'ack', aid: 'e@siebog', seq: 1 }]);
});

test('AckTracker: accepts increasing seqs, coalesces, forgets', () => {
  const acks = new AckTracker();
  assert.ok(acks.accept('a', 5), 'the first seq may be anything (an agent restarted elsewhere)');
  assert.ok(acks.accept('a', 6));
  assert.ok(!acks.accept('a', 6));
  assert.ok(!acks.accept('a', 2));
  acks.handled('a', 5);
  acks.handled('a', 6);
  acks.handled('b', 1);
  assert.deepEqual(acks.drain(), [{ aid: 'a', seq: 6 }, { aid: 'b', seq: 1 }]);
  assert.deepEqual(acks.drain(), []);
  acks.forget('a');
  assert.ok(acks.accept('a', 1));
});

test("an agent's send to an agent on the same device never reaches the server", async () => {
  const f = await joined();
  const a = startAgent(f, 'a@siebog');
  const b = startAgent(f, 'b@siebog');
  f.take();
  a.onMessage({ type: 'send', id: 7, message: { performative: 'REQUEST', receivers: ['b@siebog'], content: 'hi' } });
  assert.deepEqual(f.take(), []);
  assert.deepEqual(b.commands.at(-1), {
    type: 'deliver', seq: null,
    message: { performative: 'REQUEST', sender: 'a@siebog', receivers: ['b@siebog'], content: 'hi' },
  });
  await Promise.resolve();
  assert.deepEqual(a.commands.at(-1), { type: 'sendResult', id: 7, error: null });
  // Handling a local delivery counts, but there is no seq to acknowledge.
  b.onMessage({ type: 'handled', seq: null });
  f.runTimers();
  assert.deepEqual(f.take(), []);
  assert.equal(f.session.handledTotal, 1);
});

test('mixed receivers: local ones directly, the rest in one send to the server', async () => {
  const f = await joined();
  const a = startAgent(f, 'a@siebog');
  const b = startAgent(f, 'b@siebog');
  f.take();
  a.onMessage({ type: 'send', id: 1, message: { performative: 'INFORM', receivers: ['b@siebog', 'x@siebog', 'y@siebog'] } });
  assert.equal(b.commands.at(-1).type, 'deliver');
  const frames = f.take();
  assert.deepEqual(frames, [{
    op: 'send', ref: frames[0].ref,
    message: { performative: 'INFORM', sender: 'a@siebog', receivers: ['x@siebog', 'y@siebog'] },
  }]);
  f.session.receive({ op: 'sent', ref: frames[0].ref });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(a.commands.at(-1), { type: 'sendResult', id: 1, error: null });
});

test('the device sets the sender of an agent send to that agent', async () => {
  const f = await joined();
  const a = startAgent(f, 'a@siebog');
  f.take();
  a.onMessage({ type: 'send', id: 1, message: { performative: 'INFORM', sender: 'someone-else@siebog', receivers: ['x@siebog'] } });
  assert.equal(f.take()[0].message.sender, 'a@siebog');
});

test('a refused agent send rejects in the agent and is reported to the page', async () => {
  const f = await joined();
  const a = startAgent(f, 'a@siebog');
  f.take();
  a.onMessage({ type: 'send', id: 3, message: { performative: 'INFORM', receivers: ['nobody@siebog'] } });
  const [frame] = f.take();
  f.session.receive({ op: 'error', status: 404, error: 'no agent nobody@siebog', ref: frame.ref });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(a.commands.at(-1), { type: 'sendResult', id: 3, error: 'no agent nobody@siebog' });
  assert.deepEqual(f.events.filter((e) => e.type === 'error').map((e) => e.detail),
    [{ aid: 'a@siebog', status: 404, error: 'no agent nobody@siebog' }]);
});

test('page send: sender null, resolved by sent, rejected by error with status', async () => {
  const f = await joined();
  const ok = f.session.sendMessage({ performative: 'REQUEST', receivers: ['echo@siebog'], content: 'x' });
  const [frame] = f.take();
  assert.deepEqual(frame, { op: 'send', message: { performative: 'REQUEST', receivers: ['echo@siebog'], content: 'x' }, ref: frame.ref });
  f.session.receive({ op: 'sent', ref: frame.ref });
  await ok;
  const bad = f.session.sendMessage({ performative: 'REQUEST', receivers: ['gone@siebog'] });
  const [frame2] = f.take();
  f.session.receive({ op: 'error', status: 404, error: 'no such agent', ref: frame2.ref });
  await assert.rejects(bad, (e) => e instanceof SiebogError && e.status === 404);
});

test('page send: invalid messages and foreign senders are refused before any frame', async () => {
  const f = await joined();
  await assert.rejects(f.session.sendMessage({ performative: 'SHOUT', receivers: ['a@siebog'] }), { field: 'performative' });
  await assert.rejects(f.session.sendMessage({ performative: 'INFORM', sender: 'x@siebog', receivers: ['a@siebog'] }), { status: 403 });
  assert.deepEqual(f.take(), []);
});

test('frames over maxFrameBytes are refused locally', async () => {
  const f = await joined(); // maxFrameBytes 1000
  await assert.rejects(f.session.sendMessage({ performative: 'INFORM', receivers: ['a@siebog'], content: 'é'.repeat(600) }),
    (e) => e.status === 413 && /at most 1000/.test(e.message));
  assert.deepEqual(f.take(), []);
});

test('spawn: ref answered by spawned; args must be strings', async () => {
  const f = await joined();
  const spawned = f.session.spawn('Echo', 'e1', { n: '3' });
  const [frame] = f.take();
  assert.deepEqual(frame, { op: 'spawn', agentClass: 'Echo', name: 'e1', args: { n: '3' }, ref: frame.ref });
  f.session.receive({ op: 'spawned', ref: frame.ref, aid: 'e1@siebog', location: 'd-1' });
  assert.deepEqual(await spawned, { aid: 'e1@siebog', location: 'd-1' });
  await assert.rejects(f.session.spawn('Echo', 'e2', { n: 3 }), /args.n must be a string/);
  const dup = f.session.spawn('Echo', 'e1');
  f.session.receive({ op: 'error', status: 409, error: 'name in use', ref: f.take()[0].ref });
  await assert.rejects(dup, { status: 409 });
});

test('stopAgent: ref answered by agentStopped, or by a 403 for an agent elsewhere', async () => {
  const f = await joined();
  const stopped = f.session.stopAgent('e1@siebog');
  const [frame] = f.take();
  assert.deepEqual(frame, { op: 'stopAgent', aid: 'e1@siebog', ref: frame.ref });
  f.session.receive({ op: 'agentStopped', ref: frame.ref, aid: 'e1@siebog' });
  assert.equal(await stopped, undefined);
  const others = f.session.stopAgent('x@siebog');
  f.session.receive({ op: 'error', status: 403, error: 'does not host', ref: f.take()[0].ref });
  await assert.rejects(others, { status: 403 });
});

test('agentError in start ends the agent; in message it goes on', async () => {
  const f = await joined();
  const host = startAgent(f, 't@siebog', false);
  host.onMessage({ type: 'agentError', phase: 'start', error: 'Error: no' });
  assert.deepEqual(f.take(), [{ op: 'agentError', aid: 't@siebog', phase: 'start', error: 'Error: no' }]);
  assert.ok(host.terminated);
  assert.deepEqual(f.session.agentList(), []);

  const h2 = startAgent(f, 'u@siebog');
  f.take();
  h2.onMessage({ type: 'agentError', phase: 'message', error: 'Error: boom' });
  assert.deepEqual(f.take(), [{ op: 'agentError', aid: 'u@siebog', phase: 'message', error: 'Error: boom' }]);
  assert.equal(f.session.agentList().length, 1);
  assert.ok(f.events.some((e) => e.type === 'agenterror' && e.detail.phase === 'message'));
});

test('stop: onStop runs, then the Worker ends and stopped is sent', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.take();
  f.session.receive({ op: 'stop', aid: 'e@siebog' });
  assert.deepEqual(host.commands.at(-1), { type: 'stop' });
  // Deliveries after stop stay with the server (not handed over, not acknowledged).
  f.session.receive({ op: 'deliver', aid: 'e@siebog', seq: 1, message: { performative: 'INFORM', receivers: ['e@siebog'] } });
  assert.equal(host.commands.at(-1).type, 'stop');
  host.onMessage({ type: 'stopped' });
  assert.ok(host.terminated);
  assert.deepEqual(f.take(), [{ op: 'stopped', aid: 'e@siebog' }]);
  assert.deepEqual(f.session.agentList(), []);
});

test('an agent that moves: the device asks with move; the stop that ends this copy says moved, its acks go first', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.take();
  host.onMessage({ type: 'move', id: 4, device: 'd-other' });
  const [move] = f.take();
  assert.deepEqual(move, { op: 'move', aid: 'e@siebog', device: 'd-other', ref: move.ref });

  f.session.receive({ op: 'deliver', aid: 'e@siebog', seq: 1, message: { performative: 'INFORM', receivers: ['e@siebog'] } });
  host.onMessage({ type: 'handled', seq: 1 });
  f.session.receive({ op: 'stop', aid: 'e@siebog', moved: true });
  assert.deepEqual(host.commands.at(-1), { type: 'stop', moved: true });
  host.onMessage({ type: 'stopped' });
  assert.deepEqual(f.take(), [{ op: 'ack', aid: 'e@siebog', seq: 1 }, { op: 'stopped', aid: 'e@siebog' }],
    'what it handled here is acknowledged before it ends, so its next device does not get it again');
  f.session.receive({ op: 'moved', ref: move.ref, aid: 'e@siebog', location: 'd-other' });

  const refused = f.session.moveAgent('x@siebog');
  const [other] = f.take();
  assert.deepEqual(other, { op: 'move', aid: 'x@siebog', ref: other.ref }, 'no device: the node picks');
  f.session.receive({ op: 'error', status: 403, error: 'does not host', ref: other.ref });
  await assert.rejects(refused, { status: 403 });
  await assert.rejects(f.session.moveAgent('x@siebog', ''), { status: 400 });
});

test('stop: an onStop that hangs is cut short after the timeout', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.take();
  f.session.receive({ op: 'stop', aid: 'e@siebog' });
  const timer = f.timers.find((t) => t.ms === STOP_TIMEOUT_MS);
  timer.fn();
  assert.ok(host.terminated);
  assert.deepEqual(f.take(), [{ op: 'stopped', aid: 'e@siebog' }]);
});

test('stop of an agent not here (its onStart failed) is ignored', async () => {
  const f = await joined();
  f.session.receive({ op: 'stop', aid: 'ghost@siebog' });
  assert.deepEqual(f.take(), []);
});

test('close ends every Worker and fails open requests', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  const pending = f.session.sendMessage({ performative: 'INFORM', receivers: ['far@siebog'] });
  f.session.close('gone');
  assert.ok(host.terminated);
  await assert.rejects(pending, { status: 503 });
  await assert.rejects(f.session.sendMessage({ performative: 'INFORM', receivers: ['far@siebog'] }), { status: 503 });
});

test('leave flushes pending acks first', async () => {
  const f = await joined();
  const host = startAgent(f, 'e@siebog');
  f.session.receive({ op: 'deliver', aid: 'e@siebog', seq: 1, message: { performative: 'INFORM', receivers: ['e@siebog'] } });
  host.onMessage({ type: 'handled', seq: 1 });
  f.take();
  f.session.leave();
  assert.deepEqual(f.take(), [{ op: 'ack', aid: 'e@siebog', seq: 1 }, { op: 'leave' }]);
});

test('an error frame without ref is reported as an event', async () => {
  const f = await joined();
  f.session.receive({ op: 'error', status: 400, error: "unknown op 'x'" });
  assert.deepEqual(f.events.at(-1), { type: 'error', detail: { status: 400, error: "unknown op 'x'" } });
});

test('splitReceivers keeps order and drops duplicates', () => {
  assert.deepEqual(splitReceivers(['a', 'x', 'a', 'b'], (aid) => aid !== 'x'), { local: ['a', 'b'], remote: ['x'] });
});

test('RateMeter: rate over the sliding window', () => {
  const m = new RateMeter(3000);
  assert.equal(m.sample(0, 0), 0);
  assert.equal(m.sample(100, 1000), 100);
  assert.equal(m.sample(300, 2000), 150);
  assert.equal(m.sample(600, 3000), 200);
  assert.equal(m.sample(600, 4000), 500 / 3, 'the oldest sample left the window');
});

test('deviceSocketUrl: same host as the library, ws/wss matching http/https', () => {
  assert.equal(deviceSocketUrl(undefined, 'http://h:8080/siebog/js/device.js'), 'ws://h:8080/siebog/ws/device');
  assert.equal(deviceSocketUrl(undefined, 'https://h/siebog/js/device.js'), 'wss://h/siebog/ws/device');
  assert.equal(deviceSocketUrl('ws://other:9/siebog/ws/device', 'http://h/x.js'), 'ws://other:9/siebog/ws/device');
  assert.equal(deviceSocketUrl('https://other:12080', 'http://h/x.js'), 'wss://other:12080/siebog/ws/device');
  assert.throws(() => deviceSocketUrl(undefined, 'file:///x/device.js'), /pass \{url/);
});
