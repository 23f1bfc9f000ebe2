import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchmarkRound, runBenchmark, computeUnitsOf, MAX_COMPUTE_UNITS } from '../src/compute-units.js';

test('one compute unit is 1,000 rounds per second', () => {
  assert.equal(computeUnitsOf(300, 300), 1);
  assert.equal(computeUnitsOf(600_000, 300), 2000);
  assert.equal(computeUnitsOf(2 * 600_000, 300), 4000, 'twice the rounds, twice the CUs');
  assert.equal(computeUnitsOf(12_345, 1000), 12.35);
});

test('CUs stay within (0, 1,000,000]', () => {
  assert.equal(computeUnitsOf(1, 1_000_000), 0.01);
  assert.equal(computeUnitsOf(1e12, 1), MAX_COMPUTE_UNITS);
  assert.throws(() => computeUnitsOf(0, 300), RangeError);
  assert.throws(() => computeUnitsOf(10, 0), RangeError);
});

test('the workload is fixed and seeded: the same rounds give the same checksum', () => {
  let clock = 0;
  const a = runBenchmark(1, () => clock++);
  clock = 0;
  const b = runBenchmark(1, () => clock++);
  assert.equal(a.rounds, 256);
  assert.equal(a.checksum, b.checksum);
  assert.equal(a.checksum, -270386954, 'changing the workload changes what a CU means: update docs/device-protocol.md');
  assert.notEqual(benchmarkRound(1), benchmarkRound(2));
});

test('runBenchmark runs until the duration has passed', () => {
  let clock = 0;
  const { rounds, elapsedMs } = runBenchmark(10, () => clock++);
  assert.equal(elapsedMs, 10);
  assert.equal(rounds, 256 * 10);
});
