// Compute units (CUs): how much work a device can take, from a fixed benchmark run once on
// joining (docs/device-protocol.md, "Placement on devices"). One CU is 1,000 rounds per second of
// the workload below; the server places client agents with probability proportional to CUs.

/** How long the measured part runs. */
export const BENCHMARK_MS = 300;
/** Unmeasured run first, so the JIT has compiled the round before we count. */
export const WARMUP_MS = 50;
/** The protocol's bound on a report. */
export const MAX_COMPUTE_UNITS = 1_000_000;

const SEED = 0x5eb06;
const STEPS = 64;

/**
 * One round of the fixed workload: a seeded mix of integer (xorshift, multiply) and floating-point
 * (multiply-add, square root) steps. Only IEEE-exact operations, so every engine computes the same
 * checksum; the state threads through rounds so no round can be optimised away.
 * @param {number} state 32-bit integer state
 * @returns {number} the next state
 */
export function benchmarkRound(state) {
  let x = state | 0;
  let f = (x >>> 0) / 4294967296 + 1;
  for (let i = 0; i < STEPS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x = Math.imul(x, 0x9e3779b1) + i | 0;
    f = Math.sqrt(f * 1.000001 + (x & 0xffff) / 65536);
  }
  // Fold the float back in so its work matters to the result.
  return (x ^ Math.floor(f * 1e6)) | 0;
}

/**
 * Runs rounds until `durationMs` have passed on `now`, checking the clock every 256 rounds.
 * @param {number} durationMs
 * @param {() => number} [now]
 * @returns {{rounds: number, elapsedMs: number, checksum: number}}
 */
export function runBenchmark(durationMs, now = () => performance.now()) {
  let state = SEED;
  let rounds = 0;
  const start = now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 256; i++) state = benchmarkRound(state);
    rounds += 256;
    elapsed = now() - start;
  } while (elapsed < durationMs);
  return { rounds, elapsedMs: elapsed, checksum: state };
}

/**
 * CUs from a measurement: rounds per second / 1000, kept within (0, 1,000,000] and to 2 decimals.
 * @param {number} rounds
 * @param {number} elapsedMs
 */
export function computeUnitsOf(rounds, elapsedMs) {
  if (!(rounds > 0) || !(elapsedMs > 0)) throw new RangeError('a benchmark needs rounds > 0 and elapsedMs > 0');
  const cus = rounds / (elapsedMs / 1000) / 1000;
  return Math.min(MAX_COMPUTE_UNITS, Math.max(0.01, Math.round(cus * 100) / 100));
}

/** Runs the benchmark once: warm-up, then the measured run. */
export function measureComputeUnits(now = () => performance.now()) {
  runBenchmark(WARMUP_MS, now);
  const { rounds, elapsedMs } = runBenchmark(BENCHMARK_MS, now);
  return { computeUnits: computeUnitsOf(rounds, elapsedMs), rounds, elapsedMs };
}

/**
 * The benchmark as a device runs it: in a Worker, so the page stays responsive. Under a second in
 * all (about 350 ms of work plus the Worker's start).
 */
export class ComputeUnitBenchmark {
  /**
   * @param {{timeoutMs?: number}} [options] give up after this long (a Worker that never starts)
   * @returns {Promise<{computeUnits: number, rounds: number, elapsedMs: number}>}
   */
  static run({ timeoutMs = 5000 } = {}) {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./compute-units-worker.js', import.meta.url), { type: 'module' });
      const timer = setTimeout(() => finish(new Error(`the compute-unit benchmark did not finish in ${timeoutMs} ms`)), timeoutMs);
      function finish(error, result) {
        clearTimeout(timer);
        worker.terminate();
        if (error) reject(error); else resolve(result);
      }
      worker.onmessage = (e) => finish(null, e.data);
      worker.onerror = (e) => {
        e.preventDefault?.();
        finish(new Error(`the compute-unit benchmark failed: ${e.message ?? 'worker error'}`));
      };
    });
  }
}
