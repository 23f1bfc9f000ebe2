// The host page as a volunteer sees it: what it shows once joined (checked in a real screenshot,
// saved under target/browser-tests/ to look at), its accessibility basics, Leave and Join, and the
// TSP demo running on three devices.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ADMIN, DEVICE_ID, agents, devices, eventually, launchBrowser, noDevicesLeft, openDevice, outFile, startAgent, stopAgent, uniqueName, waitForDeviceId } from './support.js';
import { coloursIn, decodePng } from './png.js';

const ACCENT = '11,92,173'; // host.css --accent, the buttons' background

describe('the host page', () => {
  let browser;
  let a;
  let b;
  let c;
  const started = [];

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'e2e host page' });
    b = await openDevice(browser, { cu: 200, label: 'e2e B' });
    c = await openDevice(browser, { cu: 700, label: 'e2e C' });
    for (let i = 0; i < 2; i++) started.push((await startAgent('Echo', uniqueName(`shown-${i}`), { device: a.id })).aid);
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    for (const d of [a, b, c]) await d?.close();
    await browser?.close();
  });

  test('once joined it shows the device, its CUs and agents, matching the server; the screenshot shows them too', async () => {
    const page = a.page;
    const text = (id) => page.getByTestId(id).textContent();
    await eventually('the page to show 2 agents', async () => (await text('agent-count')) === '2', { timeout: 15_000 });
    // Let the first stats tick fill in the rate.
    await page.waitForTimeout(1200);

    const listed = (await devices())[a.id];
    assert.match(await text('device-id'), DEVICE_ID);
    assert.equal(await text('device-id'), a.id);
    assert.ok(Number((await text('compute-units')).replace(/,/g, '')) > 0);
    assert.equal(Number(await text('compute-units')), listed.computeUnits);
    assert.equal(Number(await text('agent-count')), listed.agents);
    assert.match(await text('messages-per-second'), /^\d+(\.\d+)?$/);
    assert.match(await text('connection-state'), /^Joined/);
    assert.equal(listed.label, 'e2e host page');
    for (const id of ['device-id', 'compute-units', 'agent-count', 'messages-per-second', 'connection-state', 'join-leave', 'start-demo', 'demo-canvas']) {
      assert.ok(await page.getByTestId(id).isVisible(), `${id} is visible`);
    }
    const rows = page.locator('#agents tbody tr');
    assert.equal(await rows.count(), 2);
    assert.deepEqual((await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.aid))).sort(), [...started].sort());
    assert.ok(await page.getByTestId('log').getByText(`Joined as ${a.id} with 100 compute units.`).isVisible());

    const file = outFile('host-page.png');
    await page.screenshot({ path: file, fullPage: true });
    const image = decodePng(readFileSync(file));
    const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
    assert.equal(image.width, size.width, 'the screenshot is as wide as the page');
    assert.equal(image.height, size.height, 'the screenshot holds the whole page');
    assert.ok(image.height > 900, 'the full page is longer than the viewport');
    // Where the DOM says the Leave button and the device id are, the screenshot shows them painted:
    // the button in the accent colour with light text, the id in dark text on the panel.
    const button = await page.getByTestId('join-leave').boundingBox();
    const buttonColours = coloursIn(image, button);
    assert.ok(buttonColours.has(ACCENT), 'the Leave button is drawn in the accent colour');
    assert.ok([...buttonColours].some((rgb) => rgb.split(',').every((v) => Number(v) > 200)), 'the button has light text');
    const id = coloursIn(image, await page.getByTestId('device-id').boundingBox());
    assert.ok([...id].some((rgb) => rgb.split(',').every((v) => Number(v) < 90)), 'the device id is drawn in dark text');
    assert.ok(id.size > 5, 'the device id is text, not a blank box');
  });

  test('accessibility basics: named buttons, live status regions, labelled table and canvas', async () => {
    const page = a.page;
    const buttons = await page.locator('button').count();
    const snapshot = await page.locator('body').ariaSnapshot();
    const named = [...snapshot.matchAll(/- button "([^"]+)"/g)].map((m) => m[1]);
    assert.equal(named.length, buttons, `every button has an accessible name:\n${snapshot}`);
    assert.ok(await page.getByRole('button', { name: 'Leave' }).isEnabled());
    assert.ok(await page.getByRole('button', { name: 'Start TSP demo' }).isEnabled());
    const statuses = page.getByRole('status');
    assert.equal(await statuses.count(), 3, 'the connection state and the two demos\' status');
    for (const live of await statuses.evaluateAll((els) => els.map((el) => el.getAttribute('aria-live')))) assert.equal(live, 'polite');
    assert.equal(await page.getByRole('status').first().getAttribute('data-testid'), 'connection-state');
    assert.ok(await page.getByRole('table', { name: 'Hosted agents' }).isVisible());
    assert.ok((await page.getByRole('img').getAttribute('aria-label')).length > 10, 'the canvas is described');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.deepEqual(await page.getByRole('heading', { level: 1 }).allTextContents(), ['Siebog']);
    // Keyboard: Tab reaches the Leave button.
    let focused = null;
    for (let i = 0; i < 10 && focused !== 'join-leave'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.dataset.testid ?? null);
    }
    assert.equal(focused, 'join-leave', 'the Leave button can be reached with Tab');
  });

  test('Start TSP demo: ant colonies on the three devices report rounds and a best tour', async (t) => {
    const page = a.page;
    await page.getByLabel('Admin user').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Start TSP demo' }).click();
    await page.getByTestId('demo-status').getByText('Running').waitFor({ timeout: 30_000 });
    const coordinator = await page.getByTestId('demo-coordinator').textContent();
    assert.match(coordinator, /^tsp-\d+@/);
    started.push(coordinator);
    const rounds = await eventually('3 rounds of the demo', async () => {
      const m = /^(\d+) of 100$/.exec(await page.getByTestId('demo-rounds').textContent());
      return m && Number(m[1]) >= 3 ? Number(m[1]) : null;
    }, { timeout: 120_000, every: 500 });
    const best = Number((await page.getByTestId('demo-best-length').textContent()).replace(/,/g, ''));
    t.diagnostic(`TSP demo: ${rounds} rounds done, best tour ${best}`);
    assert.ok(best > 0 && Number.isFinite(best), 'a best length is shown');
    assert.match(await page.getByRole('img').getAttribute('aria-label'), /60 cities and the best tour found so far/);

    const ants = (await agents()).filter((x) => x.agentClass === 'TspAnt' && x.aid.startsWith(coordinator.replace(/@.*/, '-ant-')));
    assert.equal(ants.length, 4, 'the coordinator started 4 ants');
    for (const ant of ants) assert.ok([a.id, b.id, c.id].includes(ant.location), `${ant.aid} runs on one of the devices`);

    await page.screenshot({ path: outFile('host-page-demo.png'), fullPage: true });
    const file = outFile('tsp-demo.png');
    await page.getByTestId('demo-canvas').screenshot({ path: file });
    const canvas = decodePng(readFileSync(file));
    const colours = coloursIn(canvas, { x: 0, y: 0, width: canvas.width, height: canvas.height });
    assert.ok(colours.has(ACCENT), 'the tour is drawn (in the accent colour)');
    assert.ok([...colours].some((rgb) => rgb === '26,26,26'), 'the cities are drawn');

    // Stopping the coordinator stops its ants; the page notices.
    await stopAgent(coordinator);
    await eventually('the ants to stop', async () => !(await agents()).some((x) => ants.some((ant) => ant.aid === x.aid)), { timeout: 30_000 });
    await page.getByTestId('demo-status').getByText('The coordinator is gone').waitFor({ timeout: 15_000 });
    assert.ok(await page.getByRole('button', { name: 'Start TSP demo' }).isEnabled());
  });

  test('a volunteer without the admin password hosts agents but cannot start the demo: it is told to log in, nothing starts', async () => {
    const volunteer = await openDevice(browser, { cu: 50, label: 'e2e no login' });
    try {
      const before = (await agents()).length;
      const status = volunteer.page.getByTestId('demo-status');
      await volunteer.page.getByLabel('Password').fill('a guess');
      await volunteer.page.getByRole('button', { name: 'Start TSP demo' }).click();
      await status.getByText('needs a Siebog admin login: the user name or password is wrong').waitFor({ timeout: 15_000 });
      assert.ok(await volunteer.page.getByRole('button', { name: 'Start TSP demo' }).isEnabled(), 'the button can be tried again');
      assert.equal((await agents()).length, before, 'no coordinator was started');
      assert.ok((await devices())[volunteer.id], 'the volunteer is still a device');
    } finally {
      await volunteer.close();
    }
  });

  test('a page without ?cu= is measured: it answers the node\'s challenge in a Worker and shows the units the node gave it', async () => {
    const measured = await openDevice(browser, { cu: null, label: 'e2e measured' });
    try {
      const sent = measured.frames.filter((f) => f.dir === 'sent').map((f) => f.frame);
      const received = measured.frames.filter((f) => f.dir === 'received').map((f) => f.frame);
      assert.equal(sent[0].op, 'join');
      assert.equal(sent[0].computeUnits, undefined, 'no claim without ?cu=');
      const challenge = received.find((f) => f.op === 'challenge');
      assert.match(challenge?.seed ?? '', /^[0-9a-f]{32}$/);
      const solution = sent.find((f) => f.op === 'solution');
      assert.equal(solution?.nonces?.length, challenge.puzzles);
      const welcome = received.find((f) => f.op === 'welcome');
      assert.ok(welcome.computeUnits > 0, `measured ${welcome.computeUnits} units`);
      const listed = (await devices())[measured.id];
      assert.equal(listed.computeUnits, welcome.computeUnits);
      assert.equal(Number((await measured.page.getByTestId('compute-units').textContent()).replace(/,/g, '')), welcome.computeUnits);
    } finally {
      await measured.close();
    }
  });

  test('Leave leaves (its agents move on), Join joins again as a new device', async () => {
    const page = a.page;
    const oldId = a.id;
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('button', { name: 'Join' }).waitFor({ timeout: 15_000 });
    assert.match(await page.getByTestId('connection-state').textContent(), /^Not joined/);
    assert.equal(await page.getByTestId('device-id').textContent(), '—');
    assert.equal(await page.getByTestId('agent-count').textContent(), '0');
    const afterLeave = await eventually('the left device to be gone and its agents moved', async () => {
      const listed = await devices();
      return !listed[oldId] && listed[b.id]?.agents + listed[c.id]?.agents === 2 ? listed : null;
    }, { timeout: 20_000 });
    assert.equal(Object.keys(afterLeave).length, 2);

    await page.getByRole('button', { name: 'Join' }).click();
    const newId = await waitForDeviceId(page, 30_000);
    assert.match(newId, DEVICE_ID);
    assert.notEqual(newId, oldId, 'joining again gives a new device id');
    a.id = newId;
    assert.equal(await page.getByRole('button', { name: 'Leave' }).count(), 1);
    assert.match(await page.getByTestId('connection-state').textContent(), /^Joined/);
    const listed = await devices();
    assert.equal(listed[newId]?.computeUnits, 100, 'the new device keeps its forced CUs');
    assert.equal(listed[newId].label, 'e2e host page');
    assert.deepEqual(a.problems, [], 'no uncaught errors on the page');
  });
});
