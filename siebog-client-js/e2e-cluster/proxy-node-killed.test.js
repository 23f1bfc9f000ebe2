// A client agent whose proxy's node is killed (issue 38): the deliveries its device had not
// acknowledged survive, as a stateful agent's messages do. Device A joins node2's host page and runs
// a Tally (its proxy on node2, where A's socket is); device B joins node1's. Eight writers post numbered
// INFORMs to the Tally through node1, each under an Idempotency-Key and posted again under it until
// admitted (202), while node2 is killed with SIGKILL: A goes with it, node1 takes the proxy over from
// its replicated record and inbox log, and starts the Tally on B from the state A last saved. Every
// admitted number must then have been counted: a number A counted (and saved) whose acknowledgement
// died with node2 reaches B again and counts as a repeat (at least once, docs/cluster.md).
// launcher/browser-tests.sh runs this last, on the cluster of the console's tests: node2 stays down.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN, BASE, agents, ask, basic, eventually, launchBrowser, noDevicesLeft, openDevice, startAgent, stopAgent, uniqueName } from '../e2e/support.js';

const SIEBOG = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'siebog');
const NODES_DIR = process.env.SIEBOG_E2E_NODES_DIR;
const NODE2 = (process.env.SIEBOG_E2E_URL2 ?? 'http://127.0.0.1:9080/siebog').replace(/\/$/, '');
const NUMBERS = 200;
const KILL_AFTER = 40;
const WRITERS = 8;

/** Posts INFORM `n` to `aid` through node1 under `key`: the status, or null when no answer came within 10 s. */
async function post(aid, n, key) {
  try {
    const response = await fetch(`${BASE}/api/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic(ADMIN.username, ADMIN.password), 'Idempotency-Key': key },
      body: JSON.stringify({ performative: 'INFORM', receivers: [aid], content: String(n) }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.text();
    return response.status;
  } catch {
    return null;
  }
}

describe('a client agent whose proxy\'s node is killed', { skip: !NODES_DIR && 'SIEBOG_E2E_NODES_DIR is not set (launcher/browser-tests.sh sets it)' }, () => {
  let browser;
  let a;
  let b;
  let aid;

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { label: 'on node2', base: NODE2 });
    b = await openDevice(browser, { label: 'on node1' });
  });

  after(async () => {
    if (aid) await stopAgent(aid);
    await a?.close();
    await b?.close();
    await browser?.close();
  });

  test('every admitted message reaches the agent on another device', async () => {
    ({ aid } = await startAgent('Tally', uniqueName('tally'), { device: a.id }));
    const run = randomUUID();
    const admitted = [];
    const answers = new Map(); // status (or "none") → how many posts got it
    let next = 1;
    let killed = false;
    // Eight writers, so that the Tally (a Cassandra write per number) has numbers pushed to it and not yet
    // acknowledged when node2 dies: those are what died with a proxy before.
    const writer = async () => {
      for (let n = next++; n <= NUMBERS; n = next++) {
        for (;;) {
          const status = await post(aid, n, `${run}-${n}`);
          answers.set(status ?? 'none', (answers.get(status ?? 'none') ?? 0) + 1);
          if (status === 202) break;
          assert.ok(status === null || status >= 500, `INFORM ${n}: ${status}, not an answer to post again after`);
          await new Promise((r) => setTimeout(r, 200));
        }
        admitted.push(n);
        if (admitted.length === KILL_AFTER) {
          execFileSync(SIEBOG, ['kill', 'node2'], { env: { ...process.env, SIEBOG_NODES_DIR: NODES_DIR }, stdio: 'ignore' });
          killed = true;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    assert.ok(killed);

    let counted = { seen: [], repeats: 0 };
    await eventually('the Tally on device B counting every admitted number', async () => {
      const { status, body } = await ask(aid, JSON.stringify({ show: true }), { awaitReplyMs: 5_000 });
      if (status === 200) counted = JSON.parse(body.content);
      return counted.seen.length >= admitted.length;
    }, { timeout: 60_000, every: 1_000 }).catch(() => { }); // what it has counted by then is checked below
    const seen = new Set(counted.seen);
    assert.deepEqual(admitted.filter((n) => !seen.has(n)), [], 'no admitted number lost');
    assert.equal(seen.size, NUMBERS, 'nothing counted that was not posted');
    const where = (await agents()).find((x) => x.aid === aid)?.location;
    assert.equal(where, b.id, 'the Tally runs on device B now');
    console.log(`${NUMBERS} admitted (answers: ${JSON.stringify(Object.fromEntries(answers))}), `
      + `all counted, ${counted.repeats} counted again after the failover`);
  });
});
