// The console against a two-node cluster, in real Chromium (issue 20's test): an admin signs in on
// node1 and sees both nodes and a device that joined node2's host page; starts an agent on node2 from
// the console, sends it a message, sees the message in the sniffer (admitted on node2, watched from
// node1) and stops the agent; a viewer sees no action and the API refuses one (403). The host page's
// and the console's screenshots are decoded and checked (target/browser-tests/cluster-*.png), and the
// console's accessibility tree read. launcher/browser-tests.sh runs this after the one-node tests, on
// a cluster of its own (SIEBOG_E2E_URL is node1, SIEBOG_E2E_URL2 node2).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, BASE, VIEWER, api, eventually, launchBrowser, noDevicesLeft, openDevice, uniqueName, wholePageScreenshot } from '../e2e/support.js';
import { coloursIn } from '../e2e/png.js';

const NODE2 = (process.env.SIEBOG_E2E_URL2 ?? 'http://127.0.0.1:9080/siebog').replace(/\/$/, '');

describe('the console of a two-node cluster', () => {
  let browser;
  let context;
  let page;
  let device;

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, httpCredentials: ADMIN });
    page = await context.newPage();
    assert.equal((await page.goto(`${BASE}/console/`)).status(), 200);
  });

  after(async () => {
    await device?.close();
    await context?.close();
    await browser?.close();
  });

  test('an admin sees both nodes and a device of node2', async () => {
    await eventually('both nodes up', async () => (await page.locator('#nodes tbody td.up').count()) === 2);
    assert.deepEqual(await page.locator('#nodes tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.key)), ['node1', 'node2']);
    await eventually('the status line', async () => /Signed in as admin \(siebog-admin\)\. 2 nodes/.test(await page.getByTestId('status').textContent()));

    device = await openDevice(browser, { label: 'e2e cluster', base: NODE2 });
    const hostPage = await wholePageScreenshot(device.page, 'cluster-host-page.png');
    const id = coloursIn(hostPage, await device.page.getByTestId('device-id').boundingBox());
    assert.ok([...id].some((rgb) => rgb.split(',').every((v) => Number(v) < 90)), 'the host page shows its device id in dark text');

    const row = page.locator(`#devices tbody tr[data-key="${device.id}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    assert.deepEqual(cells.slice(0, 3), [device.id, 'e2e cluster', 'node2']);
    assert.match(cells[5], /^[0-9.]+$/, 'its messages per second, which node2 told node1 (NodeOp.DeviceRates)');
    await page.locator('#events li[data-type="device-joined"]', { hasText: device.id }).waitFor();

    const image = await wholePageScreenshot(page, 'cluster-console.png');
    for (const node of ['node1', 'node2']) {
      const up = coloursIn(image, await page.locator(`#nodes tbody tr[data-key="${node}"] td.up`).boundingBox());
      assert.ok(up.has('29,107,47'), `${node}'s "up" is drawn in host.css --good`);
    }
  });

  test('an admin starts an agent on node2, messages it, sees the message in the sniffer and stops it', async () => {
    const name = uniqueName('cluster-pong');
    const aid = `${name}@siebog`;
    const start = page.getByTestId('start-agent');
    await start.getByLabel('Class').selectOption('Pong');
    await start.getByLabel('Name').fill(name);
    await start.getByLabel('On node (optional)').fill('node2');
    await start.getByRole('button', { name: 'Start' }).click();
    await eventually('the start said', async () => (await page.getByTestId('status').textContent()) === `Started ${name}.`);
    const row = page.locator(`#agents tbody tr[data-key="${aid}"]`);
    await row.waitFor();
    assert.deepEqual((await row.locator('td').allTextContents()).slice(0, 3), [aid, 'Pong', 'node2']);

    // Watch it first (node1 holds the stream, node2 admits the message), then send from node1's console.
    await page.getByRole('button', { name: `Show the messages of ${aid} in the sniffer` }).click();
    await eventually('the sniffer watching', async () => /^Watching the messages of /.test(await page.getByTestId('status').textContent()));
    await page.waitForTimeout(1_000); // the watch reaches node2 as the stream opens: leave it a moment
    const message = page.getByTestId('send-message');
    await message.getByLabel('Performative').selectOption('INFORM');
    await message.getByLabel('Receivers (AIDs, comma-separated)').fill(aid);
    await message.getByLabel('Content').fill('across the cluster');
    await message.getByLabel('Conversation id').fill('cluster-1');
    await message.getByRole('button', { name: 'Send' }).click();
    const arrow = page.getByTestId('sniffer-diagram').getByRole('button', { name: new RegExp(`^INFORM from outside to ${aid} at [0-9:.]+$`) });
    await arrow.waitFor();
    await arrow.click();
    const details = page.getByTestId('sniffer-details');
    const fields = Object.fromEntries(await details.locator('dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    assert.equal(fields.content, 'across the cluster');
    assert.equal(fields.conversationId, 'cluster-1');
    assert.match(fields.Admitted, / on node2$/, 'admitted on node2, seen from node1');
    assert.equal(fields.Receiver, `${aid} on node2`);
    await wholePageScreenshot(page, 'cluster-console-sniffer.png');
    await page.getByRole('button', { name: 'Stop watching' }).click();

    await page.getByRole('button', { name: `Stop ${aid}` }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await api('GET', `/agents/${encodeURIComponent(aid)}`)).status, 404, 'stopped in the cluster');
  });

  test('a viewer sees both nodes but no action, and the API refuses one (403)', async () => {
    assert.ok(VIEWER, 'launcher/browser-tests.sh makes a viewer account (SIEBOG_E2E_VIEWER_PASSWORD)');
    const viewer = await browser.newContext({ httpCredentials: VIEWER });
    try {
      const seen = await viewer.newPage();
      await seen.goto(`${BASE}/console/`);
      await eventually('signed in as viewer', async () => /Signed in as viewer \(siebog-viewer\)\. 2 nodes/.test(await seen.getByTestId('status').textContent()));
      for (const form of ['start-agent', 'send-message', 'sniffer-form']) {
        assert.equal(await seen.getByTestId(form).isVisible(), false, `no ${form}`);
      }
      const refused = await seen.evaluate(async () => [
        (await fetch('/siebog/api/agents', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"agentClass":"Pong","name":"v"}' })).status,
        (await fetch('/siebog/api/sniffer?agent=anyone@siebog')).status,
      ]);
      assert.deepEqual(refused, [403, 403]);
    } finally {
      await viewer.close();
    }
  });

  test('accessibility: both nodes in the labelled table, the sniffer\'s controls labelled', async () => {
    const snapshot = await page.locator('body').ariaSnapshot();
    assert.match(snapshot, /- table "Nodes"/, snapshot);
    assert.match(snapshot, /- row "node1 /, snapshot);
    assert.match(snapshot, /- row "node2 /, snapshot);
    assert.match(snapshot, /- textbox "Agents \(AIDs, comma-separated\)"/, snapshot);
    assert.match(snapshot, /group "Messages as a sequence diagram: agents left to right/, snapshot);
    assert.equal(await page.getByRole('status').getAttribute('aria-live'), 'polite');
  });
});
