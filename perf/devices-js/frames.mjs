// The device frames the load generator writes (docs/device-protocol.md), in the canonical form of
// siebog-client-js/test/fixtures/device-frames.json: fields in the order the server writes them.
// test/frames.test.mjs holds each one to the fixture's example (npm test here).

/** `join` with a claimed figure (the node perf/devices starts trusts claims) and a label. */
export const join = (computeUnits, label) => ({ op: 'join', computeUnits, label });
export const heartbeat = () => ({ op: 'heartbeat' });
export const started = (aid) => ({ op: 'started', aid });
export const stopped = (aid) => ({ op: 'stopped', aid });
export const ack = (aid, seq) => ({ op: 'ack', aid, seq });
/** `send` without a `ref`: only errors are answered. */
export const send = (message) => ({ op: 'send', message });
/** An ACL message with the fields the Ping/Echo pairs use, in the ACL contract's order. */
export const message = (performative, sender, receivers, content) => ({ performative, sender, receivers, content });
