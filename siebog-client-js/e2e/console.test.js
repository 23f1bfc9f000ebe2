// The console (/siebog/console/) in real Chromium: behind the API's login, it shows the node with
// its figures, a device as it joins (in the devices table and as a live event) and leaves; its
// screenshot is checked and kept under target/browser-tests/, its accessibility tree read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ADMIN, BASE, eventually, launchBrowser, noDevicesLeft, openDevice, outFile } from './support.js';
import { coloursIn, decodePng } from './png.js';

describe('the console', () => {
  let browser;
  let context;
  let page;

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, httpCredentials: ADMIN });
    page = await context.newPage();
    const response = await page.goto(`${BASE}/console/`);
    assert.equal(response.status(), 200);
  });

  after(async () => {
    await context?.close();
    await browser?.close();
  });

  test('it needs a login', async () => {
    // Asked for without credentials (a browser would show its login dialog here; headless Chromium gives up).
    const response = await fetch(`${BASE}/console/`);
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Basic/);
    assert.equal((await fetch(`${BASE}/console/console.js`)).status, 401, 'its script too');
  });

  test('it shows the node with its figures, and who is signed in', async () => {
    await eventually('the status line', async () => /Signed in as admin \(siebog-admin\)\. 1 node/.test(await page.getByTestId('status').textContent()));
    const row = page.locator('#nodes tbody tr[data-key="node1"]');
    const cells = await row.locator('td').allTextContents();
    assert.equal(cells[0], 'node1');
    assert.equal(cells[2], 'up');
    assert.match(cells[5], /^\d+ MB of \d+ MB$/, `heap: ${cells}`);
    assert.match(cells[6], /^\d+%$/, `CPU: ${cells}`);
  });

  test('a device shows as it joins and leaves: in the devices table and as live events', async () => {
    const device = await openDevice(browser, { cu: 100, label: 'e2e console' });
    try {
      await page.locator(`#devices tbody tr[data-key="${device.id}"]`).waitFor({ timeout: 10_000 });
      const cells = await page.locator(`#devices tbody tr[data-key="${device.id}"] td`).allTextContents();
      assert.deepEqual(cells.slice(0, 4), [device.id, 'e2e console', 'node1', '100']);
      assert.ok(await page.getByTestId('no-devices').isHidden());
      const joined = page.locator('#events li[data-type="device-joined"]', { hasText: device.id });
      await joined.waitFor({ timeout: 10_000 });
      assert.match(await joined.textContent(), new RegExp(`Device ${device.id} \\(e2e console\\) joined node1 with 100(\\.0)? compute units\\.`));

      const file = outFile('console.png');
      await page.screenshot({ path: file, fullPage: true });
      const image = decodePng(readFileSync(file));
      const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
      assert.deepEqual([image.width, image.height], [size.width, size.height], 'the screenshot holds the whole page');
      // Where the DOM says the device's row and the node's status are, the screenshot shows them painted.
      const deviceCell = coloursIn(image, await page.locator(`#devices tbody tr[data-key="${device.id}"] td`).first().boundingBox());
      assert.ok([...deviceCell].some((rgb) => rgb.split(',').every((v) => Number(v) < 90)), 'the device id is drawn in dark text');
      const up = coloursIn(image, await page.locator('#nodes tbody tr[data-key="node1"] td.up').boundingBox());
      assert.ok(up.has('29,107,47'), 'the node\'s "up" is drawn in host.css --good');
    } finally {
      await device.close();
    }
    await page.locator(`#devices tbody tr[data-key="${device.id}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('#events li[data-type="device-left"]', { hasText: device.id }).waitFor({ timeout: 10_000 });
  });

  test('accessibility: a live status, labelled tables and event list, one h1, keyboard reaches the host page link', async () => {
    const snapshot = await page.locator('body').ariaSnapshot();
    assert.match(snapshot, /- table "Nodes"/, snapshot);
    assert.match(snapshot, /- table "Devices"/, snapshot);
    assert.match(snapshot, /- list "Live events"/, snapshot);
    assert.equal(await page.getByRole('status').getAttribute('aria-live'), 'polite');
    assert.equal(await page.getByTestId('events').getAttribute('aria-live'), 'polite');
    assert.deepEqual(await page.getByRole('heading', { level: 1 }).allTextContents(), ['Siebog console']);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    // The column headers are headers of their columns, so a screen reader reads each cell with its header.
    assert.equal(await page.locator('#nodes th[scope="col"]').count(), 11);
    // Keyboard: with no device joined, Tab reaches the link to the host page.
    await page.getByTestId('no-devices').waitFor();
    let focused = null;
    for (let i = 0; i < 10 && focused !== '/siebog/'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? null);
    }
    assert.equal(focused, '/siebog/', 'the host page link can be reached with Tab');
  });
});
