// Agent state in the session: saveState frames, versions, coalescing, backpressure, local limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SiebogError, utf8Length } from '../src/session.js';
import { fixture } from '../test-support/fake-session.js';

/** A joined session with fake agent hosts; `welcome` fields can be overridden. */
async function joined(welcome = {}) {
  const f = fixture();
  const { session, frames, events, hosts, take } = f;
  const joining = session.join(10);
  session.receive({ op: 'welcome', device: 'd-1', platform: 'siebog', heartbeatMs: 5000, maxFrameBytes: 262144, maxStateBytes: 1000, maxPendingState: 256, ...welcome });
  await joining;
  frames.length = 0;
  const start = (aid, { state = null, version = 0 } = {}) => {
    session.receive({ op: 'start', aid, agentClass: 'Primes', module: '/siebog/agents/Primes.js', args: {}, state, version });
    const host = hosts.get(aid);
    host.onMessage({ type: 'started' });
    frames.length = 0;
    let id = 0;
    return {
      host,
      /** The agent calls saveState(value): returns the id its saveResult will carry. */
      save: (value) => { host.onMessage({ type: 'saveState', id: ++id, json: JSON.stringify(value) }); return id; },
      results: () => host.commands.filter((c) => c.type === 'saveResult'),
    };
  };
  const saved = () => events.filter((e) => e.type === 'statesaved').map((e) => e.detail);
  return { session, frames, events, hosts, start, take, saved };
}

test('the start command hands the saved state and version to the agent', async () => {
  const f = await joined();
  const { host } = f.start('p@siebog', { state: { next: 500, count: 95 }, version: 7 });
  assert.deepEqual(host.commands[0], {
    type: 'start', module: 'http://host:8080/siebog/agents/Primes.js', aid: 'p@siebog', args: {},
    state: { next: 500, count: 95 }, version: 7,
  });
});

test('a save goes out with the current version; stateSaved resolves it and becomes the version', async () => {
  const f = await joined();
  const a = f.start('p@siebog', { state: { n: 1 }, version: 4 });
  a.save({ n: 2 });
  const [frame] = f.take();
  assert.deepEqual(frame, { op: 'saveState', aid: 'p@siebog', version: 4, state: { n: 2 }, ref: frame.ref });
  f.session.receive({ op: 'stateSaved', ref: frame.ref, aid: 'p@siebog', version: 5 });
  assert.deepEqual(a.results(), [{ type: 'saveResult', id: 1, version: 5, error: null }]);
  assert.deepEqual(f.saved(), [{ aid: 'p@siebog', version: 5 }]);
  a.save({ n: 3 });
  assert.equal(f.take()[0].version, 5, 'the next save names the acknowledged version');
});

test('coalescing: three saves while one is on the wire make two frames, and every promise settles', async () => {
  const f = await joined();
  const a = f.start('p@siebog');
  a.save({ n: 1 });
  a.save({ n: 2 });
  a.save({ n: 3 });
  a.save({ n: 4 });
  const [first] = f.take();
  assert.deepEqual(first.state, { n: 1 });
  f.session.receive({ op: 'stateSaved', ref: first.ref, aid: 'p@siebog', version: 1 });
  assert.deepEqual(a.results(), [{ type: 'saveResult', id: 1, version: 1, error: null }]);
  const frames = f.take();
  assert.equal(frames.length, 1, 'only the newest waiting save is written');
  assert.deepEqual(frames[0], { op: 'saveState', aid: 'p@siebog', version: 1, state: { n: 4 }, ref: frames[0].ref });
  f.session.receive({ op: 'stateSaved', ref: frames[0].ref, aid: 'p@siebog', version: 2 });
  assert.deepEqual(a.results().map(({ id, version, error }) => [id, version, error]),
    [[1, 1, null], [2, 2, null], [3, 2, null], [4, 2, null]], 'the waiting saves all settle with the write that covered them');
  assert.deepEqual(f.take(), []);
  assert.deepEqual(f.saved(), [{ aid: 'p@siebog', version: 1 }, { aid: 'p@siebog', version: 2 }]);
  assert.equal(f.session.statePending, 0);
});

test('coalescing is per agent: two agents each have their own save on the wire', async () => {
  const f = await joined();
  const a = f.start('a@siebog');
  const b = f.start('b@siebog', { version: 3 });
  a.save('a1');
  b.save('b1');
  a.save('a2');
  assert.deepEqual(f.take().map((x) => [x.aid, x.version, x.state]), [['a@siebog', 0, 'a1'], ['b@siebog', 3, 'b1']]);
});

test('503: the save is rejected and the version the server reports is taken for the next save', async () => {
  const f = await joined();
  const a = f.start('p@siebog', { version: 2 });
  a.save({ n: 1 });
  a.save({ n: 2 });
  const [frame] = f.take();
  f.session.receive({ op: 'error', ref: frame.ref, status: 503, error: 'Cassandra did not answer in time', version: 3 });
  assert.deepEqual(a.results(), [{ type: 'saveResult', id: 1, version: 3, error: { status: 503, message: 'Cassandra did not answer in time', version: 3 } }]);
  const [next] = f.take();
  assert.equal(next.version, 3, 'the waiting save goes from the version the failed one used up');
  assert.deepEqual(next.state, { n: 2 });
  f.session.receive({ op: 'stateSaved', ref: next.ref, aid: 'p@siebog', version: 4 });
  assert.deepEqual(a.results().at(-1), { type: 'saveResult', id: 2, version: 4, error: null });
  assert.ok(f.events.some((e) => e.type === 'error' && e.detail.aid === 'p@siebog' && e.detail.status === 503), 'the page hears of it');
});

test('409: the save is rejected and the version is NOT adopted, so later saves are refused too', async () => {
  const f = await joined();
  const a = f.start('p@siebog', { version: 2 });
  a.save({ n: 1 });
  const [frame] = f.take();
  f.session.receive({ op: 'error', ref: frame.ref, status: 409, error: 'version 2 is not current (now 5)', version: 5 });
  assert.deepEqual(a.results(), [{ type: 'saveResult', id: 1, version: 2, error: { status: 409, message: 'version 2 is not current (now 5)', version: 5 } }]);
  a.save({ n: 2 });
  const [again] = f.take();
  assert.equal(again.version, 2, 'a stale copy keeps its version: the server refuses it again');
  f.session.receive({ op: 'error', ref: again.ref, status: 409, error: 'version 2 is not current (now 6)', version: 6 });
  assert.equal(a.results().at(-1).error.status, 409);
  assert.deepEqual(f.saved(), []);
});

test('413: a state over maxStateBytes is refused before sending and changes nothing', async () => {
  const f = await joined(); // maxStateBytes 1000
  const a = f.start('p@siebog', { version: 1 });
  a.save('é'.repeat(600)); // 600 characters, 1202 bytes of JSON
  assert.deepEqual(f.take(), []);
  assert.deepEqual(a.results(), [{
    type: 'saveResult', id: 1, version: 1,
    error: { status: 413, message: 'the state of p@siebog is 1202 bytes of JSON; at most 1000 are kept', version: null },
  }]);
  assert.deepEqual(f.events.filter((e) => e.type === 'error').map((e) => e.detail),
    [{ aid: 'p@siebog', status: 413, error: 'the state of p@siebog is 1202 bytes of JSON; at most 1000 are kept' }], 'the page hears of it');
  a.save('small');
  const [frame] = f.take();
  assert.equal(frame.version, 1);
  assert.equal(frame.state, 'small');
});

test('a too-large save while another is on the wire does not disturb the waiting ones', async () => {
  const f = await joined();
  const a = f.start('p@siebog');
  a.save(1);
  a.save(2);
  a.save('x'.repeat(2000));
  const [first] = f.take();
  assert.deepEqual(a.results().map((r) => [r.id, r.error?.status]), [[3, 413]]);
  f.session.receive({ op: 'stateSaved', ref: first.ref, aid: 'p@siebog', version: 1 });
  assert.equal(f.take()[0].state, 2);
});

test('backpressure: never more than maxPendingState saves on the wire; the rest wait in order', async () => {
  const f = await joined({ maxPendingState: 2 });
  const agents = ['a', 'b', 'c', 'd'].map((n) => f.start(`${n}@siebog`));
  for (const [i, agent] of agents.entries()) agent.save(i);
  let wire = f.take();
  assert.deepEqual(wire.map((x) => x.aid), ['a@siebog', 'b@siebog']);
  agents[0].save('a again'); // waits for its own turn, behind c and d
  f.session.receive({ op: 'stateSaved', ref: wire[0].ref, aid: 'a@siebog', version: 1 });
  const next = f.take();
  assert.deepEqual(next.map((x) => x.aid), ['c@siebog'], 'the freed slot goes to the first in line');
  f.session.receive({ op: 'stateSaved', ref: wire[1].ref, aid: 'b@siebog', version: 1 });
  assert.deepEqual(f.take().map((x) => x.aid), ['d@siebog']);
  f.session.receive({ op: 'stateSaved', ref: next[0].ref, aid: 'c@siebog', version: 1 });
  wire = f.take();
  assert.deepEqual(wire.map((x) => [x.aid, x.version, x.state]), [['a@siebog', 1, 'a again']]);
  assert.equal(f.session.statePending, 2);
});

test('the welcome fields set the limits; without them the protocol defaults hold', async () => {
  const f = await joined({ maxStateBytes: 123, maxPendingState: 7 });
  assert.equal(f.session.maxStateBytes, 123);
  assert.equal(f.session.maxPendingState, 7);
  const g = await joined({ maxStateBytes: undefined, maxPendingState: undefined });
  assert.equal(g.session.maxStateBytes, 64 * 1024);
  assert.equal(g.session.maxPendingState, 256);
});

test('a stopped agent drops its unsent saves and frees its queue place; one on the wire keeps its slot until answered', async () => {
  const f = await joined({ maxPendingState: 1 });
  const a = f.start('a@siebog');
  const b = f.start('b@siebog');
  a.save(1);
  b.save(1);
  const [frame] = f.take();
  f.session.receive({ op: 'stop', aid: 'b@siebog' });
  b.host.onMessage({ type: 'stopped' });
  f.take();
  f.session.receive({ op: 'stateSaved', ref: frame.ref, aid: 'a@siebog', version: 1 });
  assert.deepEqual(f.take(), [], "b's save went with b");
  assert.equal(f.session.statePending, 0);
});

test('closing fails saves on the wire with 503 and sends nothing more', async () => {
  const f = await joined();
  const a = f.start('p@siebog');
  a.save(1);
  a.save(2);
  f.take();
  f.session.close('gone');
  assert.deepEqual(a.results().map((r) => r.error?.status), [503]);
  assert.deepEqual(f.take(), []);
  assert.ok(!f.events.some((e) => e.type === 'error'), 'a closing device does not report each save');
});

test('utf8Length counts bytes; SiebogError carries an optional version', () => {
  assert.equal(utf8Length('abc'), 3);
  assert.equal(utf8Length('"é€😀"'), 2 + 2 + 3 + 4);
  assert.equal(new SiebogError(409, 'x', 5).version, 5);
  assert.ok(!('version' in new SiebogError(400, 'x')));
});
