import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { leadingZeroBits, puzzleHash, seedWords, solveChallenge } from '../src/compute-units.js';

// The same challenge and answer the server's ComputeUnitChallengeTest checks.
const fixture = JSON.parse(readFileSync(new URL('./fixtures/compute-units-challenge.json', import.meta.url), 'utf8'));

const hex = (words) => Array.from(words, (w) => (w >>> 0).toString(16).padStart(8, '0')).join('');

test("a puzzle's hash is SHA-256 of seed, puzzle and nonce (32-bit big-endian each)", () => {
  for (let i = 0; i < 200; i++) {
    const seed = randomBytes(16);
    const puzzle = i % 64;
    const nonce = i === 0 ? 0xffffffff : randomBytes(4).readUInt32BE(0);
    const tail = Buffer.alloc(8);
    tail.writeUInt32BE(puzzle, 0);
    tail.writeUInt32BE(nonce, 4);
    const expected = createHash('sha256').update(Buffer.concat([seed, tail])).digest('hex');
    assert.equal(hex(puzzleHash(seedWords(seed.toString('hex')), puzzle, nonce)), expected);
  }
  for (const { puzzle, nonce, sha256 } of fixture.hashes) {
    assert.equal(hex(puzzleHash(seedWords(fixture.challenge.seed), puzzle, nonce)), sha256);
  }
});

test("the solver's answer is the fixture's: the first nonce of each puzzle", () => {
  assert.deepEqual(solveChallenge(fixture.challenge), fixture.solution.nonces);
});

test('every nonce of the answer gives the zero bits asked for', () => {
  const challenge = { seed: randomBytes(16).toString('hex'), puzzles: 8, zeroBits: 10 };
  const nonces = solveChallenge(challenge);
  assert.equal(nonces.length, 8);
  nonces.forEach((nonce, puzzle) => assert.ok(leadingZeroBits(puzzleHash(seedWords(challenge.seed), puzzle, nonce)) >= 10));
});

test('leading zero bits count bits across words', () => {
  assert.equal(leadingZeroBits(Uint32Array.of(0x000fffff, 1)), 12);
  assert.equal(leadingZeroBits(Uint32Array.of(0, 0x80000000)), 32);
  assert.equal(leadingZeroBits(Uint32Array.of(0x80000000)), 0);
});

test('a challenge past what a device should do, or with a bad seed, is refused rather than worked on', () => {
  const seed = fixture.challenge.seed;
  assert.throws(() => solveChallenge({ seed, puzzles: 64, zeroBits: 30 }), RangeError);
  assert.throws(() => solveChallenge({ seed, puzzles: 100_000, zeroBits: 12 }), RangeError);
  assert.throws(() => solveChallenge({ seed: 'xyz', puzzles: 64, zeroBits: 12 }), RangeError);
});
