import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  PERFORMATIVES, FIELDS, AclError, parseMessage, toCanonicalJson, validateMessage, parseAid, instant, withAllFields,
} from '../src/acl.js';

const fixtures = new URL('./fixtures/', import.meta.url);
const read = (name) => readFileSync(new URL(name, fixtures), 'utf8');

test('the 22 performatives match the shared fixture, in order', () => {
  assert.deepEqual([...PERFORMATIVES], JSON.parse(read('performatives.json')));
});

for (const file of readdirSync(new URL('acl/', fixtures))) {
  test(`valid fixture ${file} round-trips byte for byte`, () => {
    const text = read(`acl/${file}`).replace(/\n$/, '');
    assert.equal(JSON.stringify(parseMessage(text)), text);
    assert.equal(toCanonicalJson(JSON.parse(text)), text);
  });
}

for (const c of JSON.parse(read('acl-invalid.json'))) {
  test(`invalid fixture "${c.case}" is rejected naming field ${c.field}`, () => {
    assert.throws(() => parseMessage(c.json), (e) => {
      assert.ok(e instanceof AclError, `expected AclError, got ${e}`);
      assert.equal(e.field, c.field);
      if (c.field !== null) assert.match(e.message, new RegExp(c.field));
      return true;
    });
  });
}

test('canonical form orders fields, drops nulls, sorts user properties', () => {
  const msg = {
    userProperties: { z: '1', a: '2', Z: '3' },
    content: 'hi',
    receivers: ['b@siebog'],
    sender: null,
    language: undefined,
    performative: 'INFORM',
  };
  assert.equal(toCanonicalJson(msg),
    '{"performative":"INFORM","receivers":["b@siebog"],"content":"hi","userProperties":{"Z":"3","a":"2","z":"1"}}');
});

test('every field in the order FIELDS names', () => {
  const every = JSON.parse(read('acl/every-field.json'));
  assert.deepEqual(Object.keys(validateMessage(every)), [...FIELDS]);
});

test('absent receivers become an empty list; empty user properties are omitted', () => {
  assert.equal(toCanonicalJson({ performative: 'CANCEL', userProperties: {} }), '{"performative":"CANCEL","receivers":[]}');
});

test('a bare AID gets the default platform, as on the server', () => {
  assert.equal(parseAid('bob'), 'bob@siebog');
  assert.equal(toCanonicalJson({ performative: 'INFORM', receivers: ['bob'] }), '{"performative":"INFORM","receivers":["bob@siebog"]}');
  assert.throws(() => parseAid('a/b@siebog', 'sender'), { field: 'sender' });
  assert.throws(() => parseAid('x@', 'replyTo'), { field: 'replyTo' });
  assert.throws(() => parseAid('x'.repeat(201), 'receivers'), { field: 'receivers' });
});

test('replyBy is written like Java Instant.toString()', () => {
  assert.equal(instant('2026-01-31T12:00:00Z'), '2026-01-31T12:00:00Z');
  assert.equal(instant('2026-01-31T12:00:00.000Z'), '2026-01-31T12:00:00Z');
  assert.equal(instant('2026-01-31T12:00:00.1Z'), '2026-01-31T12:00:00.100Z');
  assert.equal(instant('2026-01-31T12:00:00.1234Z'), '2026-01-31T12:00:00.123400Z');
  assert.equal(instant('2026-01-31T12:00:00.123456789Z'), '2026-01-31T12:00:00.123456789Z');
  assert.equal(instant('2026-01-01T00:30:00+01:00'), '2025-12-31T23:30:00Z');
  for (const bad of ['tomorrow', '2026-02-30T00:00:00Z', '2026-01-31T24:00:00Z', '2026-01-31 12:00:00Z', '2026-01-31T12:00:00']) {
    assert.throws(() => instant(bad), { field: 'replyBy' }, bad);
  }
});

test('withAllFields gives agents every field, absent ones null', () => {
  const full = withAllFields(validateMessage({ performative: 'INFORM' }));
  assert.deepEqual(Object.keys(full), [...FIELDS]);
  assert.equal(full.content, null);
  assert.deepEqual(full.receivers, []);
});

test('not an object: field null', () => {
  for (const v of [null, 42, 'INFORM', ['INFORM']]) {
    assert.throws(() => validateMessage(v), { field: null });
  }
});
