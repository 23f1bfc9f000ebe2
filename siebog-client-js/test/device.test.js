import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Device } from '../src/device.js';

/** A WebSocket stand-in: records frames, lets the test play the server. */
class FakeSocket {
  static last = null;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.closedWith = null;
    FakeSocket.last = this;
    queueMicrotask(() => this.onopen?.());
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close(code, reason) { this.closedWith = { code, reason }; }
  serverSends(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
  serverCloses(code, reason = '') { this.onclose({ code, reason }); }
}

const noWorkers = () => ({ post() {}, terminate() {} });

function recordEvents(device) {
  const events = [];
  for (const type of ['state', 'joined', 'closed', 'error']) {
    device.addEventListener(type, (e) => events.push([type, e.detail]));
  }
  return events;
}

async function joinedDevice() {
  const device = new Device({ url: 'ws://h:1/siebog/ws/device', computeUnits: 5, label: 't', WebSocket: FakeSocket, createAgentHost: noWorkers });
  const events = recordEvents(device);
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  const socket = FakeSocket.last;
  assert.deepEqual(socket.sent, [{ op: 'join', computeUnits: 5, label: 't' }]);
  socket.serverSends({ op: 'welcome', device: 'd-1', platform: 'siebog', heartbeatMs: 60_000, maxFrameBytes: 262144 });
  await joining;
  return { device, socket, events };
}

test('a device joins, leaves on request, and does not reconnect after leaving', async () => {
  const { device, socket, events } = await joinedDevice();
  assert.equal(device.id, 'd-1');
  assert.equal(device.state, 'joined');
  assert.deepEqual(events.find(([t]) => t === 'joined')[1], { device: 'd-1', platform: 'siebog', computeUnits: 5, heartbeatMs: 60_000 });
  const leaving = device.leave();
  assert.deepEqual(socket.sent.at(-1), { op: 'leave' });
  socket.serverCloses(1000, 'left');
  await leaving;
  assert.equal(device.state, 'left');
  assert.deepEqual(events.find(([t]) => t === 'closed')[1], { code: 1000, reason: 'left', reconnecting: false });
});

test("a device measured by the node answers its challenge and takes the units the node gives it", async () => {
  const device = new Device({
    url: 'ws://h:1/siebog/ws/device', computeUnits: 5, WebSocket: FakeSocket, createAgentHost: noWorkers,
    solveChallenge: async ({ puzzles }) => Array.from({ length: puzzles }, (_, i) => i),
  });
  const events = recordEvents(device);
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  const socket = FakeSocket.last;
  assert.deepEqual(socket.sent, [{ op: 'join', computeUnits: 5 }], 'the claim goes along; a node that does not trust it ignores it');
  socket.serverSends({ op: 'challenge', seed: '00'.repeat(16), puzzles: 3, zeroBits: 12 });
  await new Promise((r) => setImmediate(r));
  assert.equal(device.state, 'measuring');
  assert.deepEqual(socket.sent.at(-1), { op: 'solution', nonces: [0, 1, 2] });
  socket.serverSends({ op: 'welcome', device: 'd-7', platform: 'siebog', computeUnits: 321.5, heartbeatMs: 60_000 });
  await joining;
  assert.equal(device.computeUnits, 321.5);
  assert.equal(events.find(([t]) => t === 'joined')[1].computeUnits, 321.5);
  device.reconnect = false;
  socket.serverCloses(1000, 'bye');
});

test('an unexpected close reconnects as a new device', async () => {
  const { device, socket, events } = await joinedDevice();
  socket.serverCloses(1001, 'node shutting down');
  assert.equal(device.state, 'reconnecting');
  assert.equal(device.id, null);
  assert.deepEqual(events.find(([t]) => t === 'closed')[1], { code: 1001, reason: 'node shutting down', reconnecting: true });
  await device.leave(); // cancels the pending attempt
  assert.equal(device.state, 'left');
});

test('a first join that fails rejects and does not retry', async () => {
  const device = new Device({ url: 'ws://h:1/siebog/ws/device', computeUnits: 5, WebSocket: FakeSocket, createAgentHost: noWorkers });
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  FakeSocket.last.serverCloses(1006);
  await assert.rejects(joining, { status: 503 });
  assert.equal(device.state, 'left');
});

test('a refused join rejects and closes the socket', async () => {
  const device = new Device({ url: 'ws://h:1/siebog/ws/device', computeUnits: 5, WebSocket: FakeSocket, createAgentHost: noWorkers });
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  FakeSocket.last.serverSends({ op: 'error', status: 400, error: 'bad label' });
  await assert.rejects(joining, /bad label/);
  assert.equal(FakeSocket.last.closedWith.code, 1000);
});

test('a join token is shown in join, and a join refused for it is a 403', async () => {
  const device = new Device({ url: 'ws://h:1/siebog/ws/device', computeUnits: 5, token: 'lab-7f3a', WebSocket: FakeSocket, createAgentHost: noWorkers });
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(FakeSocket.last.sent, [{ op: 'join', computeUnits: 5, token: 'lab-7f3a' }]);
  FakeSocket.last.serverSends({ op: 'error', status: 403, error: "the join token is not this node's" });
  await assert.rejects(joining, { status: 403, message: "the join token is not this node's" });
});

test('a device the node closes with 1008 (refused) does not reconnect; one closed with 1013 does', async () => {
  const refused = await joinedDevice();
  refused.socket.serverCloses(1008, 'sent frames faster than allowed');
  assert.equal(refused.device.state, 'left');
  assert.deepEqual(refused.events.find(([t]) => t === 'closed')[1], { code: 1008, reason: 'sent frames faster than allowed', reconnecting: false });

  const slow = await joinedDevice();
  slow.socket.serverCloses(1013, 'read too slowly');
  assert.equal(slow.device.state, 'reconnecting');
  await slow.device.leave();
});

test('computeUnits out of range are refused before connecting', () => {
  assert.throws(() => new Device({ url: 'ws://h/siebog/ws/device', computeUnits: 0 }), RangeError);
  assert.throws(() => new Device({ url: 'ws://h/siebog/ws/device', computeUnits: 2e6 }), RangeError);
});

test('an acknowledged save is a statesaved event on the device', async () => {
  const hosts = new Map();
  const device = new Device({
    url: 'ws://h:1/siebog/ws/device', computeUnits: 5, WebSocket: FakeSocket,
    createAgentHost: (aid, onMessage) => { hosts.set(aid, { onMessage, commands: [] }); return { post: (c) => hosts.get(aid).commands.push(c), terminate() {} }; },
  });
  const saved = [];
  device.addEventListener('statesaved', (e) => saved.push(e.detail));
  const joining = device.connect();
  await new Promise((r) => setImmediate(r));
  const socket = FakeSocket.last;
  socket.serverSends({ op: 'welcome', device: 'd-2', platform: 'siebog', heartbeatMs: 60_000, maxFrameBytes: 262144, maxStateBytes: 65536, maxPendingState: 256 });
  await joining;
  socket.serverSends({ op: 'start', aid: 'p@siebog', agentClass: 'Primes', module: '/siebog/agents/Primes.js', args: {}, state: { next: 3 }, version: 2 });
  const host = hosts.get('p@siebog');
  assert.deepEqual(host.commands[0].state, { next: 3 });
  host.onMessage({ type: 'started' });
  host.onMessage({ type: 'saveState', id: 1, json: '{"next":4}' });
  const frame = socket.sent.at(-1);
  assert.deepEqual(frame, { op: 'saveState', aid: 'p@siebog', version: 2, state: { next: 4 }, ref: frame.ref });
  socket.serverSends({ op: 'stateSaved', ref: frame.ref, aid: 'p@siebog', version: 3 });
  assert.deepEqual(saved, [{ aid: 'p@siebog', version: 3 }]);
  assert.deepEqual(host.commands.at(-1), { type: 'saveResult', id: 1, version: 3, error: null });
  const leaving = device.leave();
  socket.serverCloses(1000, 'left');
  await leaving;
});

test('a device busy both ways skips its heartbeat; one that only sends or only hears does not', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
  const { device, socket } = await joinedDevice();
  const heartbeats = () => socket.sent.filter((f) => f.op === 'heartbeat').length;
  t.mock.timers.tick(60_000);
  assert.equal(heartbeats(), 1, 'an idle device heartbeats');

  t.mock.timers.tick(30_000);
  device.session.write({ op: 'started', aid: 'a@siebog' });
  socket.serverSends({ op: 'heartbeat' });
  t.mock.timers.tick(30_000);
  assert.equal(heartbeats(), 1, 'it sent and heard within the interval');

  t.mock.timers.tick(30_000);
  device.session.write({ op: 'started', aid: 'a@siebog' });
  t.mock.timers.tick(30_000);
  assert.equal(heartbeats(), 2, 'it sent but heard nothing: the server must answer something');

  t.mock.timers.tick(30_000);
  socket.serverSends({ op: 'heartbeat' });
  t.mock.timers.tick(30_000);
  assert.equal(heartbeats(), 3, 'it heard but sent nothing: the server must hear from it');
  device.leave();
});
