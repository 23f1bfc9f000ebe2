// Client agents started without a device go to devices with probability proportional to their
// compute units. Three devices report 100, 200 and 700 CUs (the host page's ?cu=); 100 Echo
// agents are started through the REST API and the agents per device (GET /api/devices) are tested
// against the CU shares with Pearson's chi-square test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, ask, devices, eventually, launchBrowser, noDevicesLeft, openDevice, startAgent, stopAgent, uniqueName } from './support.js';

const AGENTS = 100;
const CUS = [100, 200, 700];
// Chi-square with 2 degrees of freedom: the statistic exceeds 13.816 with probability 0.001 when
// the placement does follow the shares. Seeded placement (-Dsiebog.device.placement-seed) makes a
// run repeatable on the same node; a failure here means the shares are off, not bad luck.
const CHI2_CRITICAL_DF2_P001 = 13.816;

export function chiSquare(observed, expected) {
  return observed.reduce((sum, o, i) => sum + (o - expected[i]) ** 2 / expected[i], 0);
}

describe('placement by compute units', () => {
  let browser;
  let devs = [];
  const started = [];

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    for (const cu of CUS) devs.push(await openDevice(browser, { cu, label: `e2e ${cu} CU` }));
  });

  after(async () => {
    await stopAll(started);
    for (const d of devs) await d.close();
    await browser?.close();
  });

  test('the devices report their forced compute units', async () => {
    const listed = await devices();
    for (const d of devs) {
      assert.equal(listed[d.id]?.computeUnits, d.cu, `${d.id} lists ${d.cu} CUs`);
      assert.equal(listed[d.id].agents, 0);
      assert.equal(await d.page.getByTestId('compute-units').textContent(), String(d.cu));
    }
    assert.equal(Object.keys(listed).length, CUS.length);
  });

  test(`${AGENTS} agents are spread in proportion to compute units (chi-square, p ≥ 0.001)`, async (t) => {
    const locations = {};
    // A few at a time: each start waits for its device to run onStart.
    const names = Array.from({ length: AGENTS }, (_, i) => uniqueName(`cu-${i}`));
    for (let i = 0; i < names.length; i += 5) {
      const batch = await Promise.all(names.slice(i, i + 5).map((n) => startAgent('Echo', n)));
      for (const { aid, location } of batch) {
        started.push(aid);
        locations[location] = (locations[location] ?? 0) + 1;
      }
    }
    const listed = await devices();
    const observed = devs.map((d) => listed[d.id].agents);
    // The server's tally agrees with where each POST said the agent went, and nothing is elsewhere.
    assert.deepEqual(observed, devs.map((d) => locations[d.id] ?? 0));
    assert.equal(observed.reduce((s, n) => s + n, 0), AGENTS);
    const total = CUS.reduce((s, c) => s + c, 0);
    const expected = CUS.map((c) => (AGENTS * c) / total);
    const chi2 = chiSquare(observed, expected);
    const report = `observed ${observed.join('/')} for CUs ${CUS.join('/')} (expected ${expected.join('/')}), chi² = ${chi2.toFixed(3)}`;
    t.diagnostic(`placement: ${report}`);
    assert.ok(chi2 < CHI2_CRITICAL_DF2_P001, `placement does not follow the CU shares: ${report}`);
    // Each page shows what it hosts.
    for (const [i, d] of devs.entries()) {
      await eventually(`${d.id} to show ${observed[i]} agents`, async () =>
        Number(await d.page.getByTestId('agent-count').textContent()) === observed[i], { timeout: 15_000 });
    }
  });

  test('the placed agents answer, and stopping them empties every device', async () => {
    const sample = started.filter((_, i) => i % 10 === 0);
    const answers = await Promise.all(sample.map((aid) => ask(aid, aid, { awaitReplyMs: 15_000 })));
    answers.forEach(({ status, body }, i) => {
      assert.equal(status, 200);
      assert.equal(body.content, sample[i]);
    });
    await stopAll(started.splice(0));
    await eventually('every device to list 0 agents', async () => {
      const listed = await devices();
      return devs.every((d) => listed[d.id].agents === 0);
    }, { timeout: 15_000 });
    for (const d of devs) {
      await eventually(`${d.id} to host nothing`, async () => Number(await d.page.getByTestId('agent-count').textContent()) === 0,
        { timeout: 15_000 });
    }
  });

  test('the chi-square statistic itself', () => {
    assert.equal(chiSquare([10, 20, 70], [10, 20, 70]), 0);
    assert.ok(Math.abs(chiSquare([20, 20, 60], [10, 20, 70]) - (10 + 0 + 100 / 70)) < 1e-9);
    assert.ok(chiSquare([33, 33, 34], [10, 20, 70]) > CHI2_CRITICAL_DF2_P001, 'an even spread is rejected');
  });
});

async function stopAll(aids) {
  for (let i = 0; i < aids.length; i += 10) {
    await Promise.all(aids.slice(i, i + 10).map((aid) => stopAgent(aid)));
  }
  // DELETE answers once the agent takes no more messages; it leaves the directory after its onStop.
  await eventually('every stopped agent to be gone from GET /api/agents', async () => {
    const { body } = await api('GET', '/agents');
    return !body.some((a) => aids.includes(a.aid));
  }, { timeout: 15_000 });
}
