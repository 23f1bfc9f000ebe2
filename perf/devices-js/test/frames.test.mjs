// The generator's frames against the device protocol's examples (siebog-client-js/test/fixtures/
// device-frames.json), which the server, the library and perf/ycsb test against too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as frames from '../frames.mjs';

const fixtures = JSON.parse(readFileSync(new URL('../../../siebog-client-js/test/fixtures/device-frames.json', import.meta.url), 'utf8'));
const example = (op, name, direction = 'deviceToNode') => {
    const found = fixtures[direction][op].valid.find((c) => c.name === name);
    assert.ok(found, `${op}: ${name}`);
    return found.frame;
};
const same = (built, expected) => assert.equal(JSON.stringify(built), JSON.stringify(expected));

test('join, heartbeat, started, stopped and ack are the examples', () => {
    const join = example('join', "a claim and a label (the host page's ?cu= and ?label=)");
    same(frames.join(join.computeUnits, join.label), join);
    same(frames.heartbeat(), example('heartbeat', 'a heartbeat'));
    same(frames.started(example('started', 'onStart ran').aid), example('started', 'onStart ran'));
    const stopped = example('stopped', 'onStop ran, the Worker ended');
    same(frames.stopped(stopped.aid), stopped);
    const ack = example('ack', 'every delivery up to 42 handled');
    same(frames.ack(ack.aid, ack.seq), ack);
});

test("an Echo's answer is the example of a send without ref", () => {
    const send = example('send', 'from an agent of the device, only errors answered');
    const { performative, sender, receivers, content } = send.message;
    same(frames.send(frames.message(performative, sender, receivers, content)), send);
});

test("a deliver example's fields are what the generator reads to acknowledge it", () => {
    for (const { frame } of fixtures.nodeToDevice.deliver.valid) {
        same(frames.ack(frame.aid, frame.seq), { op: 'ack', aid: frame.aid, seq: frame.seq });
        assert.ok(Number.isInteger(frame.seq) && typeof frame.aid === 'string' && frame.message.performative);
    }
    const welcome = example('welcome', 'measured', 'nodeToDevice');
    assert.ok(typeof welcome.device === 'string' && Number.isInteger(welcome.heartbeatMs));
});
