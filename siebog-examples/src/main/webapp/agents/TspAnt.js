// One colony of the TSP demo: the TspCoordinator (a server agent) sends each ant a REQUEST per
// round with the cities and the global best; the ant runs `iterations` of MAX-MIN Ant System (each
// iteration's best tour polished by 2-opt) on its own pheromone matrix, kept across rounds, and
// replies INFORM with its best tour. Seeded by seed + round, so a run can be repeated.
//
// REQUEST content: {"cities":[[x,y],...],"best":[i,...]|null,"bestLength":n|null,"round":n,"iterations":k,"seed":s}
// INFORM content:  {"tour":[i,...],"length":L,"iterations":k}
import { Agent } from '/siebog/js/agent.js';

const TOURS_PER_CITY = 4; // tours per iteration, per city: 20 iterations on 60 cities ≈ 130 ms of CPU
const ALPHA = 1;          // weight of pheromone
const BETA = 3;           // weight of closeness
const RHO = 0.1;          // evaporation per iteration
const MAX_ITERATIONS = 100_000;

export default class TspAnt extends Agent {
  onStart() {
    this.instance = null; // {n, key, dist, heuristic, tau, tauMin, tauMax}
    this.best = null;
    this.bestLength = Infinity;
  }

  onMessage(msg) {
    if (msg.performative !== 'REQUEST') return;
    let task;
    try {
      task = parseTask(msg.content);
    } catch (e) {
      this.reply(msg, 'NOT_UNDERSTOOD', e.message);
      return;
    }
    this.prepare(task.cities);
    const random = mulberry32((task.seed + task.round) >>> 0);
    const { n, tau } = this.instance;
    // Lean towards the colony-wide best: it counts as this ant's best-so-far for pheromone.
    let guide = this.best;
    let guideLength = this.bestLength;
    if (task.best && task.best.length === n && isPermutation(task.best, n)) {
      const length = tourLength(task.best, this.instance.dist, n);
      if (length < guideLength) {
        guide = task.best;
        guideLength = length;
      }
    }
    for (let it = 0; it < task.iterations; it++) {
      let iterationBest = null;
      let iterationLength = Infinity;
      for (let k = 0; k < TOURS_PER_CITY * n; k++) {
        const tour = this.construct(random);
        const length = tourLength(tour, this.instance.dist, n);
        if (length < iterationLength) {
          iterationBest = tour;
          iterationLength = length;
        }
      }
      // Only the iteration's best is polished by 2-opt: enough to learn from, and the colony's
      // progress stays visible over rounds instead of jumping to the optimum at once.
      iterationLength = twoOpt(iterationBest, this.instance.dist, n);
      if (iterationLength < this.bestLength) {
        this.best = iterationBest.slice();
        this.bestLength = iterationLength;
      }
      if (this.bestLength < guideLength) {
        guide = this.best;
        guideLength = this.bestLength;
      }
      // MMAS: evaporate everywhere, deposit on one tour, keep every trail within [tauMin, tauMax].
      this.updateBounds(guideLength);
      for (let i = 0; i < tau.length; i++) tau[i] *= 1 - RHO;
      // Mostly the iteration's best (exploration), every fifth time the best so far (exploitation).
      const depositOn = it % 5 === 4 ? guide : iterationBest;
      deposit(tau, depositOn, 1 / (depositOn === guide ? guideLength : iterationLength), n);
      clamp(tau, this.instance.tauMin, this.instance.tauMax);
    }
    this.reply(msg, 'INFORM', JSON.stringify({ tour: this.best, length: round6(this.bestLength), iterations: task.iterations }));
  }

  /** Sets up distances and pheromone for a new instance; keeps them when the cities are the same. */
  prepare(cities) {
    const key = JSON.stringify(cities);
    if (this.instance && this.instance.key === key) return;
    const n = cities.length;
    const dist = new Float64Array(n * n);
    const heuristic = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const d = Math.hypot(cities[i][0] - cities[j][0], cities[i][1] - cities[j][1]);
        dist[i * n + j] = d;
        heuristic[i * n + j] = i === j ? 0 : (1 / Math.max(d, 1e-9)) ** BETA;
      }
    }
    const nearest = tourLength(nearestNeighbourTour(dist, n), dist, n);
    this.instance = { n, key, dist, heuristic, tau: new Float64Array(n * n), tauMin: 0, tauMax: 0 };
    this.updateBounds(nearest);
    this.instance.tau.fill(this.instance.tauMax); // MMAS starts at the upper bound: explore widely first
    this.best = null;
    this.bestLength = Infinity;
  }

  updateBounds(bestLength) {
    const { n } = this.instance;
    this.instance.tauMax = 1 / (RHO * bestLength);
    this.instance.tauMin = this.instance.tauMax / (2 * n);
  }

  /** One ant's tour: from a random city, each next city with probability ∝ tau^α · (1/d)^β. */
  construct(random) {
    const { n, tau, heuristic } = this.instance;
    const tour = new Array(n);
    const visited = new Uint8Array(n);
    const weights = new Float64Array(n);
    let current = Math.floor(random() * n);
    tour[0] = current;
    visited[current] = 1;
    for (let step = 1; step < n; step++) {
      const row = current * n;
      let total = 0;
      for (let j = 0; j < n; j++) {
        const w = visited[j] ? 0 : (ALPHA === 1 ? tau[row + j] : tau[row + j] ** ALPHA) * heuristic[row + j];
        weights[j] = w;
        total += w;
      }
      let pick = -1;
      let r = random() * total;
      for (let j = 0; j < n; j++) {
        if (weights[j] === 0) continue;
        pick = j;
        r -= weights[j];
        if (r <= 0) break;
      }
      tour[step] = pick;
      visited[pick] = 1;
      current = pick;
    }
    return tour;
  }
}

function parseTask(content) {
  let task;
  try {
    task = JSON.parse(content);
  } catch {
    throw new Error('content must be JSON: {"cities":[[x,y],...],"round":n,"iterations":k,"seed":s,...}');
  }
  const { cities, round, iterations, seed } = task ?? {};
  if (!Array.isArray(cities) || cities.length < 4
      || !cities.every((c) => Array.isArray(c) && c.length === 2 && c.every(Number.isFinite))) {
    throw new Error('cities must be an array of at least 4 [x, y] number pairs');
  }
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new Error(`iterations must be a whole number from 1 to ${MAX_ITERATIONS}`);
  }
  if (!Number.isInteger(round) || !Number.isInteger(seed)) throw new Error('round and seed must be whole numbers');
  const best = Array.isArray(task.best) ? task.best : null;
  return { cities, round, iterations, seed, best };
}

function isPermutation(tour, n) {
  const seen = new Uint8Array(n);
  for (const c of tour) {
    if (!Number.isInteger(c) || c < 0 || c >= n || seen[c]) return false;
    seen[c] = 1;
  }
  return true;
}

function tourLength(tour, dist, n) {
  let length = 0;
  for (let i = 0; i < n; i++) length += dist[tour[i] * n + tour[(i + 1) % n]];
  return length;
}

function nearestNeighbourTour(dist, n) {
  const tour = [0];
  const visited = new Uint8Array(n);
  visited[0] = 1;
  for (let step = 1; step < n; step++) {
    const from = tour[step - 1];
    let next = -1;
    for (let j = 0; j < n; j++) {
      if (!visited[j] && (next < 0 || dist[from * n + j] < dist[from * n + next])) next = j;
    }
    tour.push(next);
    visited[next] = 1;
  }
  return tour;
}

/** Improves `tour` in place by reversing segments while that shortens it; returns its length. */
function twoOpt(tour, dist, n) {
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < n - 1; i++) {
      const a = tour[i];
      const b = tour[i + 1];
      for (let j = i + 2; j < n; j++) {
        const c = tour[j];
        const d = tour[(j + 1) % n];
        if (d === a) continue;
        const delta = dist[a * n + c] + dist[b * n + d] - dist[a * n + b] - dist[c * n + d];
        if (delta < -1e-10) {
          for (let l = i + 1, r = j; l < r; l++, r--) [tour[l], tour[r]] = [tour[r], tour[l]];
          improved = true;
          break;
        }
      }
    }
  }
  return tourLength(tour, dist, n);
}

function deposit(tau, tour, amount, n) {
  for (let i = 0; i < n; i++) {
    const a = tour[i];
    const b = tour[(i + 1) % n];
    tau[a * n + b] += amount;
    tau[b * n + a] += amount;
  }
}

function clamp(tau, min, max) {
  for (let i = 0; i < tau.length; i++) tau[i] = Math.min(max, Math.max(min, tau[i]));
}

/** A small seeded PRNG, so a run with the same seeds and messages gives the same tours. */
function mulberry32(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}
