// The frames the library writes and reads, against the device protocol's normative examples
// (test/fixtures/device-frames.json), which the server's DeviceFramesTest and both load generators
// in perf/ read too. A frame the library writes must be a valid example, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixture } from '../test-support/fake-session.js';
import { AclError } from '../src/acl.js';

const frames = JSON.parse(readFileSync(new URL('./fixtures/device-frames.json', import.meta.url), 'utf8'));

async function joined(options) {
  const f = fixture(options);
  const welcome = f.session.join(null);
  f.session.receive(frames.nodeToDevice.welcome.valid[0].frame);
  await welcome;
  f.take();
  return f;
}

function startAgent(f, aid, version = 0) {
  f.session.receive({ op: 'start', aid, agentClass: 'Echo', module: '/siebog/agents/Echo.js', args: {}, version, state: null });
  f.hosts.get(aid).onMessage({ type: 'started' });
  f.take();
  return f.hosts.get(aid);
}

/**
 * How the library comes to write each device → node frame, given the example: the session is led
 * to write it through its public paths (what a page or an agent does), and the frames it writes are
 * returned as text. Ops the library never writes are absent (see `notWritten`).
 */
const writers = {
  async join(frame) {
    const f = fixture();
    f.session.join(frame.computeUnits ?? null, frame.label, frame.token);
    return f.takeTexts();
  },
  async solution(frame) {
    const f = fixture({ solveChallenge: async () => frame.nonces });
    f.session.join(null);
    f.take();
    f.session.receive(frames.nodeToDevice.challenge.valid[0].frame);
    await new Promise((r) => setImmediate(r));
    return f.takeTexts();
  },
  async heartbeat() {
    const f = await joined();
    f.session.heartbeat();
    return f.takeTexts();
  },
  async send(frame) {
    const f = await joined();
    if (frame.message.sender) startAgent(f, frame.message.sender);
    f.session.nextRef = frame.ref;
    f.session.sendMessage(frame.message).catch(() => {});
    return f.takeTexts();
  },
  async spawn(frame) {
    const f = await joined();
    f.session.nextRef = frame.ref;
    f.session.spawn(frame.agentClass, frame.name, frame.args).catch(() => {});
    return f.takeTexts();
  },
  async stopAgent(frame) {
    const f = await joined();
    f.session.nextRef = frame.ref;
    f.session.stopAgent(frame.aid).catch(() => {});
    return f.takeTexts();
  },
  async move(frame) {
    // As an agent's moveTo asks it: the device moves its own agent.
    const f = await joined();
    const host = startAgent(f, frame.aid);
    f.session.nextRef = frame.ref;
    host.onMessage({ type: 'move', id: 1, device: frame.device ?? null });
    return f.takeTexts();
  },
  async started(frame) {
    const f = await joined();
    f.session.receive({ op: 'start', aid: frame.aid, agentClass: 'Echo', module: '/siebog/agents/Echo.js', args: {}, version: 0, state: null });
    f.hosts.get(frame.aid).onMessage({ type: 'started' });
    return f.takeTexts();
  },
  async stopped(frame) {
    const f = await joined();
    startAgent(f, frame.aid);
    f.session.receive({ op: 'stop', aid: frame.aid });
    f.hosts.get(frame.aid).onMessage({ type: 'stopped' });
    return f.takeTexts();
  },
  async ack(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid);
    f.session.receive({ ...frames.nodeToDevice.deliver.valid[0].frame, aid: frame.aid, seq: frame.seq });
    host.onMessage({ type: 'handled', seq: frame.seq });
    f.runTimers();
    return f.takeTexts();
  },
  async agentError(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid);
    host.onMessage({ type: 'agentError', phase: frame.phase, error: frame.error });
    return f.takeTexts().filter((t) => JSON.parse(t).op === 'agentError');
  },
  async saveState(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid, frame.version);
    f.session.nextRef = frame.ref;
    host.onMessage({ type: 'saveState', id: 1, json: JSON.stringify(frame.state) });
    return f.takeTexts();
  },
  async leave() {
    const f = await joined();
    f.session.leave();
    return f.takeTexts();
  },
};

/**
 * Device → node examples the library never writes: it sends every message with a ref, claims units
 * only in its join, starts agents from the `start` frame's state, and spawns wherever compute units
 * place an agent (perf/ycsb writes the others).
 */
const notWritten = new Set(['computeUnits', 'loadState', 'send: from an agent of the device, only errors answered',
  'spawn: on this device']);

for (const [op, { valid }] of Object.entries(frames.deviceToNode)) {
  for (const example of valid) {
    const name = `${op}: ${example.name}`;
    if (notWritten.has(op) || notWritten.has(name)) continue;
    test(`the library writes the example '${name}' exactly`, async () => {
      assert.ok(writers[op], `a way to have the library write '${op}'`);
      assert.deepEqual(await writers[op](example.frame), [JSON.stringify(example.frame)]);
    });
  }
}

test('every device → node op is written by the library or listed as not written', () => {
  for (const op of Object.keys(frames.deviceToNode)) assert.ok(writers[op] || notWritten.has(op), op);
});

// ---- what the library refuses to write ------------------------------------------------------------

/** Invalid device → node examples the library's own API can be asked to write: it refuses them before sending. */
const refusers = {
  'send: a message without a performative': (f, frame) => f.session.sendMessage(frame.message),
  'send: a message with a field of another kind': (f, frame) => f.session.sendMessage(frame.message),
  'spawn: an empty class': (f, frame) => f.session.spawn(frame.agentClass, frame.name, frame.args),
  'spawn: no name': (f, frame) => f.session.spawn(frame.agentClass, frame.name, frame.args),
  'spawn: an argument that is not a string': (f, frame) => f.session.spawn(frame.agentClass, frame.name, frame.args),
  'spawn: arguments that are not an object': (f, frame) => f.session.spawn(frame.agentClass, frame.name, frame.args),
};

for (const [op, { invalid }] of Object.entries(frames.deviceToNode)) {
  for (const example of invalid) {
    const name = `${op}: ${example.name}`;
    if (!refusers[name]) continue;
    test(`the library refuses to write the invalid example '${name}'`, async () => {
      const f = await joined();
      await assert.rejects(refusers[name](f, example.frame), (e) => e instanceof AclError || e.status === example.answer.status);
      assert.deepEqual(f.takeTexts(), [], 'nothing sent');
    });
  }
}

test('a frame over the node\'s limit is refused before sending (the node would close with 1009)', async () => {
  const over = frames.malformed.find((c) => c.padToBytes);
  const f = await joined();
  const content = 'x'.repeat(over.padToBytes);
  await assert.rejects(f.session.sendMessage({ ...over.frame.message, content }), { status: 413 });
  assert.deepEqual(f.takeTexts(), []);
});

// ---- what the library reads -----------------------------------------------------------------------

/** What the library does with each node → device example: it acts on it and reports no error. */
const readers = {
  async challenge(frame) {
    const f = fixture({ solveChallenge: async (c) => { assert.deepEqual(c, frame); return [1]; } });
    f.session.join(null);
    f.take();
    f.session.receive(frame);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(f.take(), [{ op: 'solution', nonces: [1] }]);
    return f;
  },
  async welcome(frame) {
    const f = fixture();
    const welcome = f.session.join(null);
    f.session.receive(frame);
    assert.equal((await welcome).computeUnits, frame.computeUnits);
    assert.equal(f.session.deviceId, frame.device);
    assert.equal(f.session.heartbeatMs, frame.heartbeatMs);
    assert.equal(f.session.maxFrameBytes, frame.maxFrameBytes);
    assert.equal(f.session.maxStateBytes, frame.maxStateBytes);
    assert.equal(f.session.maxPendingState, frame.maxPendingState);
    return f;
  },
  async heartbeat(frame) {
    const f = await joined();
    f.session.receive(frame);
    assert.deepEqual(f.take(), []);
    return f;
  },
  async start(frame) {
    const f = await joined();
    f.session.receive(frame);
    const [command] = f.hosts.get(frame.aid).commands;
    assert.deepEqual(command, { type: 'start', module: `http://host:8080${frame.module}`, aid: frame.aid, args: frame.args,
      state: frame.state, version: frame.version });
    return f;
  },
  async stop(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid);
    f.session.receive(frame);
    assert.deepEqual(host.commands.at(-1), frame.moved ? { type: 'stop', moved: true } : { type: 'stop' });
    return f;
  },
  async deliver(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid);
    f.session.receive(frame);
    assert.deepEqual(host.commands.at(-1), { type: 'deliver', message: frame.message, seq: frame.seq });
    return f;
  },
  async sent(frame) {
    return answers(frame, (f) => f.session.sendMessage(frames.deviceToNode.send.valid[0].frame.message), undefined);
  },
  async spawned(frame) {
    return answers(frame, (f) => f.session.spawn('Echo', 'echo-2'), { aid: frame.aid, location: frame.location });
  },
  async agentStopped(frame) {
    return answers(frame, (f) => f.session.stopAgent(frame.aid), undefined);
  },
  async moved(frame) {
    return answers(frame, (f) => f.session.moveAgent(frame.aid, frame.location), { aid: frame.aid, location: frame.location });
  },
  async stateSaved(frame) {
    const f = await joined();
    const host = startAgent(f, frame.aid, frame.version - 1);
    f.session.nextRef = frame.ref;
    host.onMessage({ type: 'saveState', id: 1, json: '{}' });
    f.session.receive(frame);
    assert.deepEqual(host.commands.at(-1), { type: 'saveResult', id: 1, version: frame.version, error: null });
    return f;
  },
  async state(frame) {
    // An answer to loadState, which the library never sends: ignored, as any answer to no request.
    const f = await joined();
    f.session.receive(frame);
    return f;
  },
  async error(frame) {
    const f = await joined();
    f.session.nextRef = frame.ref ?? 1;
    const request = f.session.stopAgent('echo-1@siebog');
    f.session.receive(frame);
    if (frame.ref != null) {
      await assert.rejects(request, (e) => e.status === frame.status && e.message === frame.error
        && (frame.version == null || e.version === frame.version));
    } else {
      const [event] = f.events.filter((e) => e.type === 'error');
      assert.deepEqual(event.detail, { status: frame.status, error: frame.error });
      request.catch(() => {});
    }
    return { ...f, expectedErrors: frame.ref == null ? 1 : 0 };
  },
};

async function answers(frame, ask, expected) {
  const f = await joined();
  f.session.nextRef = frame.ref;
  const request = ask(f);
  f.session.receive(frame);
  assert.deepEqual(await request, expected);
  return f;
}

for (const [op, { valid }] of Object.entries(frames.nodeToDevice)) {
  for (const example of valid) {
    test(`the library reads the example '${op}: ${example.name}'`, async () => {
      assert.ok(readers[op], `the library reads '${op}'`);
      const f = await readers[op](structuredClone(example.frame));
      assert.equal(f.events.filter((e) => e.type === 'error').length, f.expectedErrors ?? 0, JSON.stringify(f.events));
    });
  }
}

test('a start without its aid or module starts nothing and is reported', async () => {
  for (const example of frames.nodeToDevice.start.invalid) {
    const f = await joined();
    f.session.receive(example.frame);
    assert.equal(f.hosts.size, 0, example.name);
    assert.equal(f.events.filter((e) => e.type === 'error')[0]?.detail.status, 400, example.name);
  }
});
