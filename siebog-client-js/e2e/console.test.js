// The console (/siebog/console/) in real Chromium: behind the API's login, it shows the node with
// its figures, a device as it joins (in the devices table and as a live event) and leaves; an admin
// starts an agent, sends it a message, watches its messages in the sniffer and stops it from its forms;
// a viewer sees none of that and the
// API refuses it anyway. Its screenshot is checked and kept under target/browser-tests/, its
// accessibility tree read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, BASE, VIEWER, api, eventually, launchBrowser, noDevicesLeft, openDevice, uniqueName, wholePageScreenshot } from './support.js';
import { coloursIn } from './png.js';

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

      const image = await wholePageScreenshot(page, 'console.png'); // and it holds the whole page
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

  test('an admin starts an agent, sends it a message and stops it, from the console', async () => {
    const name = uniqueName('console-pong');
    const start = page.getByTestId('start-agent');
    await start.getByLabel('Class').selectOption('Pong');
    await start.getByLabel('Name').fill(name);
    await start.getByLabel('On node (optional)').fill('node1');
    await start.getByRole('button', { name: 'Start' }).click();
    await eventually('the start said', async () => (await page.getByTestId('status').textContent()) === `Started ${name}.`);
    const aid = `${name}@siebog`;
    const row = page.locator(`#agents tbody tr[data-key="${aid}"]`);
    await row.waitFor();
    assert.deepEqual((await row.locator('td').allTextContents()).slice(0, 3), [aid, 'Pong', 'node1']);

    const message = page.getByTestId('send-message');
    await message.getByLabel('Performative').selectOption('INFORM');
    await message.getByLabel('Receivers (AIDs, comma-separated)').fill(aid);
    await message.getByLabel('Content').fill('hello from the console');
    await message.getByLabel('Conversation id').fill('console-1');
    await message.getByRole('button', { name: 'Send' }).click();
    await eventually('the send said', async () => (await page.getByTestId('status').textContent()) === `Sent INFORM to ${aid}.`);

    // Its messages in the sniffer: the one just sent, as a recent one, then a new one as it is admitted.
    await page.getByRole('button', { name: `Show the messages of ${aid} in the sniffer` }).click();
    const diagram = page.getByTestId('sniffer-diagram');
    const recent = diagram.getByRole('button', { name: new RegExp(`^INFORM from outside to ${aid} at .* \\(recent\\)$`) });
    await recent.waitFor();
    await eventually('the sniffer watching', async () => /^Watching the messages of /.test(await page.getByTestId('status').textContent()));
    await message.getByLabel('Performative').selectOption('QUERY_IF');
    await message.getByLabel('Content').fill('seen live');
    await message.getByRole('button', { name: 'Send' }).click();
    const live = diagram.getByRole('button', { name: new RegExp(`^QUERY_IF from outside to ${aid} at [0-9:.]+$`) });
    await live.waitFor();
    await live.click();
    const details = page.getByTestId('sniffer-details');
    await details.waitFor();
    const fields = Object.fromEntries(await details.locator('dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    assert.equal(fields.content, 'seen live');
    assert.equal(fields.conversationId, 'console-1');
    assert.equal(fields.performative, 'QUERY_IF');
    assert.match(fields.Receiver, new RegExp(`^${aid} on node1$`));
    assert.match(fields.Admitted, / on node1$/);
    // The keyboard picks an arrow too.
    await recent.focus();
    await page.keyboard.press('Enter');
    await eventually('the recent message picked', async () => (await details.locator('dd').allTextContents()).includes('hello from the console'));
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await wholePageScreenshot(page, 'console-sniffer.png');

    await page.getByRole('button', { name: `Stop ${aid}` }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await api('GET', `/agents/${encodeURIComponent(aid)}`)).status, 404, 'stopped in the cluster, not only on the page');
  });

  test('a viewer sees no action, and the API refuses one anyway (403)', async () => {
    assert.ok(VIEWER, 'launcher/browser-tests.sh makes a viewer account (SIEBOG_E2E_VIEWER_PASSWORD)');
    const shown = await api('POST', '/agents', { agentClass: 'Pong', name: uniqueName('viewed') });
    assert.equal(shown.status, 201);
    const viewer = await browser.newContext({ httpCredentials: VIEWER });
    try {
      const seen = await viewer.newPage();
      await seen.goto(`${BASE}/console/`);
      await eventually('signed in as viewer', async () => /Signed in as viewer \(siebog-viewer\)/.test(await seen.getByTestId('status').textContent()));
      await seen.locator(`#agents tbody tr[data-key="${shown.body.aid}"]`).waitFor(); // listed, so its row's Stop exists, hidden
      assert.equal(await seen.getByTestId('start-agent').isVisible(), false, 'no start form');
      assert.equal(await seen.getByTestId('send-message').isVisible(), false, 'no send form');
      assert.equal(await seen.getByRole('button', { name: /^Stop / }).count(), 0, 'no stop buttons');
      assert.equal(await seen.getByTestId('sniffer-form').isVisible(), false, 'no sniffer');
      assert.equal(await seen.getByRole('button', { name: /in the sniffer$/ }).count(), 0, 'no Messages buttons');
      assert.equal(await seen.evaluate(async (agent) => (await fetch(`/siebog/api/sniffer?agent=${agent}`)).status, shown.body.aid), 403,
        'and the API refuses a viewer the sniffer');
      const refused = await seen.evaluate(async () => (await fetch('/siebog/api/agents', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ agentClass: 'Pong', name: 'from-a-viewer' }),
      })).status);
      assert.equal(refused, 403);
    } finally {
      await viewer.close();
      await api('DELETE', `/agents/${encodeURIComponent(shown.body.aid)}`);
    }
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
    // Keyboard: with no device joined, Tab from the top of the page reaches the link to the host page.
    await page.reload();
    await page.getByTestId('no-devices').waitFor();
    let focused = null;
    for (let i = 0; i < 10 && focused !== '/siebog/'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? null);
    }
    assert.equal(focused, '/siebog/', 'the host page link can be reached with Tab');
  });
});
