// Compute units (CUs): how much work a device can take, as the node measures it when the device
// joins (docs/device-protocol.md, "Compute units"). The node sends a `challenge`: `puzzles` puzzles,
// each asking for a nonce whose SHA-256 over the challenge's 16 seed bytes, the puzzle's index and
// the nonce (32-bit big-endian each) starts with `zeroBits` zero bits. The device answers with the
// nonces; the node checks them (one hash each) and times the answer itself: one CU is 1,000 hashes a
// second. A figure the device claims is taken only by a node configured to trust claims (tests).

/** The protocol's bound on a claimed figure. */
export const MAX_COMPUTE_UNITS = 1_000_000;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/**
 * SHA-256 of the 24 bytes seed + puzzle + nonce, as eight 32-bit words. One block, written for
 * this input alone (no allocation per hash: a challenge takes some 260,000 of them).
 * @param {Uint32Array} seed the seed's 16 bytes as four big-endian words
 * @param {number} puzzle
 * @param {number} nonce 0 to 2^32 - 1
 * @param {Uint32Array} [w] scratch, 64 words
 * @param {Uint32Array} [out] 8 words
 */
export function puzzleHash(seed, puzzle, nonce, w = new Uint32Array(64), out = new Uint32Array(8)) {
  w[0] = seed[0]; w[1] = seed[1]; w[2] = seed[2]; w[3] = seed[3];
  w[4] = puzzle; w[5] = nonce; w[6] = 0x80000000;
  for (let i = 7; i < 15; i++) w[i] = 0;
  w[15] = 24 * 8;
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15];
    const b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = H0[0], b = H0[1], c = H0[2], d = H0[3], e = H0[4], f = H0[5], g = H0[6], h = H0[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0;
    d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  out[0] = H0[0] + a; out[1] = H0[1] + b; out[2] = H0[2] + c; out[3] = H0[3] + d;
  out[4] = H0[4] + e; out[5] = H0[5] + f; out[6] = H0[6] + g; out[7] = H0[7] + h;
  return out;
}

/** How many bits a hash (as words) starts with that are zero. */
export function leadingZeroBits(words) {
  let bits = 0;
  for (const word of words) {
    if (word !== 0) return bits + Math.clz32(word);
    bits += 32;
  }
  return bits;
}

/** The seed's 32 hex digits as four words. */
export function seedWords(hex) {
  if (typeof hex !== 'string' || !/^[0-9a-f]{32}$/i.test(hex)) throw new RangeError(`a challenge's seed is 32 hex digits, got ${hex}`);
  return Uint32Array.from({ length: 4 }, (_, i) => parseInt(hex.slice(8 * i, 8 * i + 8), 16));
}

/**
 * Answers a challenge: for each puzzle, the first nonce from 0 that gives enough zero bits.
 * @param {{seed: string, puzzles: number, zeroBits: number}} challenge
 * @returns {number[]} the nonces, one per puzzle
 */
export function solveChallenge({ seed, puzzles, zeroBits }) {
  if (!(Number.isInteger(puzzles) && puzzles > 0 && puzzles <= 256)) throw new RangeError(`puzzles must be 1 to 256, got ${puzzles}`);
  if (!(Number.isInteger(zeroBits) && zeroBits >= 0 && zeroBits <= 16)) throw new RangeError(`zeroBits must be 0 to 16, got ${zeroBits}`);
  const words = seedWords(seed);
  const w = new Uint32Array(64);
  const out = new Uint32Array(8);
  const nonces = [];
  for (let puzzle = 0; puzzle < puzzles; puzzle++) {
    let nonce = 0;
    while (leadingZeroBits(puzzleHash(words, puzzle, nonce, w, out)) < zeroBits) nonce++;
    nonces.push(nonce);
  }
  return nonces;
}

/**
 * The challenge as a device answers it: in a Worker, so the page stays responsive (about 0.2 to
 * 1 s of work in a browser).
 */
export class ComputeUnitSolver {
  /**
   * @param {{seed: string, puzzles: number, zeroBits: number}} challenge
   * @param {{timeoutMs?: number}} [options] give up after this long (a Worker that never starts)
   * @returns {Promise<number[]>} the nonces
   */
  static solve(challenge, { timeoutMs = 8000 } = {}) {
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./compute-units-worker.js', import.meta.url), { type: 'module' });
      const timer = setTimeout(() => finish(new Error(`the compute-unit challenge was not answered in ${timeoutMs} ms`)), timeoutMs);
      function finish(error, result) {
        clearTimeout(timer);
        worker.terminate();
        if (error) reject(error); else resolve(result);
      }
      worker.onmessage = (e) => (e.data?.error ? finish(new Error(e.data.error)) : finish(null, e.data.nonces));
      worker.onerror = (e) => {
        e.preventDefault?.();
        finish(new Error(`the compute-unit challenge failed: ${e.message ?? 'worker error'}`));
      };
      worker.postMessage({ seed: challenge.seed, puzzles: challenge.puzzles, zeroBits: challenge.zeroBits });
    });
  }
}
