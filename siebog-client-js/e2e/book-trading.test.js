// Book trading (JADE's classic, in the examples) between server agents and agents in browsers:
// the host page's round (three server sellers, a server buyer, a buyer in this browser), and a
// server buyer that buys from a seller in a browser: Contract Net both ways between Java and
// JavaScript, found through the directory facilitator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, agentStarter, agents, api, ask, eventually, launchBrowser, noDevicesLeft, openDevice, outFile, stopAgent } from './support.js';

describe('book trading between server and browser agents', () => {
  let browser;
  let a;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
    a = await openDevice(browser, { cu: 100, label: 'books' });
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await a?.close();
    await browser?.close();
  });

  const query = async (aid) => {
    const { status, body } = await ask(aid, null, { performative: 'QUERY_REF', awaitReplyMs: 5000 });
    assert.equal(status, 200, JSON.stringify(body));
    return body.content ?? '';
  };

  test('the host page starts a round: the server buyer and the browser buyer each buy from the cheapest seller', async () => {
    const page = a.page;
    await page.getByLabel('Admin user').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Start book trading' }).click();
    await page.getByTestId('books-status').getByText('Done:').waitFor({ timeout: 60_000 });
    const rows = await page.locator('#books tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    assert.equal(rows.length, 5, JSON.stringify(rows));
    rows.forEach(([aid]) => started.push(aid));
    const sellerB = rows.find(([aid]) => aid.includes('-seller-b@'))[0];
    const [, , serverBuyer] = rows.find(([, role]) => role === 'buyer, server');
    const [browserAid, , browserBuyer] = rows.find(([, role]) => role === 'buyer, browser');
    assert.equal(serverBuyer, `bought Moby Dick from ${sellerB} at 10.99`);
    assert.equal(browserBuyer, `bought Dracula from ${sellerB} at 7.25`);
    assert.equal((await agents()).find((x) => x.aid === browserAid)?.location, a.id, 'the browser buyer ran on this page’s device');
    assert.equal(await query(sellerB), '', 'seller b sold both its books');
    await page.screenshot({ path: outFile('host-page-books.png'), fullPage: true });
    assert.ok(await page.getByRole('button', { name: 'Start book trading' }).isEnabled());
  });

  test('a server buyer buys from a seller in a browser; a buyer that finds no offer says why', async () => {
    const seller = await start('BrowserBookSeller', 'browser-seller', { device: a.id, args: { catalogue: 'Emma=5.00;Persuasion=6.50' } });
    const buyer = await start('BookBuyer', 'emma-buyer', { args: { title: 'Emma', maxPrice: '6', retryMs: '500' } });
    assert.equal(await eventually('the server buyer bought Emma', async () => {
      const outcome = await query(buyer.aid);
      return outcome.startsWith('bought') ? outcome : null;
    }), `bought Emma from ${seller.aid} at 5.00`);
    assert.equal(await query(seller.aid), 'Persuasion=6.50');

    const poor = await start('BrowserBookBuyer', 'poor-buyer', { device: a.id, args: { title: 'Persuasion', maxPrice: '3', retryMs: '500' } });
    assert.equal(await eventually('the browser buyer says why', async () => {
      const outcome = await query(poor.aid);
      return outcome.startsWith('not bought: no offer') ? outcome : null;
    }), 'not bought: no offer at or under 3.00 (1 above it)');
    assert.equal(await query(seller.aid), 'Persuasion=6.50', 'nothing sold to it');
  });
});
