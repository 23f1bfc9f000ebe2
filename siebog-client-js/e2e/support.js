// Shared by the end-to-end tests: a headless Debian Chromium driven by playwright-core (never a
// downloaded browser), devices = browser contexts on the host page, and the REST API.
//
// Environment:
//   SIEBOG_E2E_URL       the node's context root (default http://127.0.0.1:8980/siebog)
//   SIEBOG_E2E_CHROMIUM  the Chromium binary (default: `chromium` on the PATH, else /usr/bin/chromium)
//   SIEBOG_E2E_OUT       where screenshots go (default ../target/browser-tests)
//   SIEBOG_E2E_PYTHON    a Python with prometheus_client, for metrics.test.js (default python3)
//   SIEBOG_E2E_VIEWER_PASSWORD  the password of the node's account 'viewer' (role siebog-viewer), for console.test.js
//   SIEBOG_ADMIN_PASSWORD the node's admin password (default: the one ./siebog run keeps in
//                        target/siebog-credentials); REST calls and the host page's demo log in as admin
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { decodePng } from './png.js';

export const BASE = (process.env.SIEBOG_E2E_URL ?? 'http://127.0.0.1:8980/siebog').replace(/\/$/, '');
export const OUT = resolve(process.env.SIEBOG_E2E_OUT
  ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'target', 'browser-tests'));
export const DEVICE_ID = /^d-[0-9a-f]{8}$/;

function adminPassword() {
  if (process.env.SIEBOG_ADMIN_PASSWORD) return process.env.SIEBOG_ADMIN_PASSWORD;
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'target', 'siebog-credentials');
  const line = readFileSync(file, 'utf8').split('\n').findLast((l) => l.startsWith('admin='));
  if (!line) throw new Error(`no admin password: set SIEBOG_ADMIN_PASSWORD or run ./siebog run once (it writes ${file})`);
  return line.slice('admin='.length);
}

/** The node's admin login: for the REST calls here and for the host page's demo form. */
export const ADMIN = { username: 'admin', password: adminPassword() };

/** A siebog-viewer login, when launcher/browser-tests.sh made one (SIEBOG_E2E_VIEWER_PASSWORD); else null. */
export const VIEWER = process.env.SIEBOG_E2E_VIEWER_PASSWORD ? { username: 'viewer', password: process.env.SIEBOG_E2E_VIEWER_PASSWORD } : null;
/** An HTTP Basic Authorization header's value. */
export const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN_AUTHORIZATION = basic(ADMIN.username, ADMIN.password);

function chromiumPath() {
  if (process.env.SIEBOG_E2E_CHROMIUM) return process.env.SIEBOG_E2E_CHROMIUM;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
    throw new Error('no chromium on the PATH: apt-get install -y chromium (or set SIEBOG_E2E_CHROMIUM)');
  }
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/**
 * Opens the host page in a fresh browser context (its own device) and waits until it has joined.
 * Every WebSocket frame the page sends or receives is kept in `frames` (parsed), so a test can
 * tell what the server saw.
 * @returns {Promise<{context, page, id: string, cu: number|null, frames: {dir: 'sent'|'received', frame: any}[], close(): Promise<void>}>}
 */
export async function openDevice(browser, { cu = 100, label, base = BASE } = {}) {
  // cu: null opens the page without ?cu=, so the node measures the device (its challenge, answered in a Worker).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const frames = [];
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('websocket', (ws) => {
    const keep = (dir) => ({ payload }) => {
      try {
        frames.push({ dir, frame: JSON.parse(payload) });
      } catch {
        frames.push({ dir, frame: payload });
      }
    };
    ws.on('framesent', keep('sent'));
    ws.on('framereceived', keep('received'));
  });
  const query = new URLSearchParams({ ...(cu === null ? {} : { cu: String(cu) }), ...(label ? { label } : {}) });
  await page.goto(`${base}/?${query}`);
  const id = await waitForDeviceId(page);
  return {
    context, page, id, cu, frames, problems,
    close: () => context.close(),
  };
}

/** The device id the page shows once joined (anything but a placeholder). */
export async function waitForDeviceId(page, timeout = 60_000) {
  const handle = await page.waitForFunction((re) => {
    const text = document.querySelector('[data-testid="device-id"]')?.textContent ?? '';
    return new RegExp(re).test(text) ? text : null;
  }, DEVICE_ID.source, { timeout, polling: 100 });
  return handle.jsonValue();
}

// ---- REST -------------------------------------------------------------------------------------

/** A REST call as admin (`authorization: null`: without credentials). */
export async function api(method, path, body, { authorization = ADMIN_AUTHORIZATION } = {}) {
  const response = await fetch(`${BASE}/api${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, body: json };
}

/** Starts an agent and expects 201; returns {aid, location}. */
export async function startAgent(agentClass, name, { args, device } = {}) {
  const { status, body } = await api('POST', '/agents', { agentClass, name, ...(args ? { args } : {}), ...(device ? { device } : {}) });
  if (status !== 201) throw new Error(`POST /agents ${agentClass} ${name}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A start function that names agents uniquely and remembers their AIDs in `started`, for cleaning up. */
export function agentStarter(started) {
  return async (agentClass, prefix, options) => {
    const agent = await startAgent(agentClass, uniqueName(prefix), options);
    started.push(agent.aid);
    return agent;
  };
}

export async function stopAgent(aid) {
  const { status } = await api('DELETE', `/agents/${encodeURIComponent(aid)}`);
  if (status !== 204 && status !== 404) throw new Error(`DELETE /agents/${aid}: ${status}`);
}

/** POST /messages?awaitReplyMs: {status, body} — 200 with the answer, or 504. */
export function ask(receiver, content, { performative = 'REQUEST', awaitReplyMs = 5000 } = {}) {
  return api('POST', `/messages?awaitReplyMs=${awaitReplyMs}`, { performative, receivers: [receiver], content });
}

/** GET /devices as {id → {computeUnits, agents, …}}. */
export async function devices() {
  const { status, body } = await api('GET', '/devices');
  if (status !== 200) throw new Error(`GET /devices: ${status}`);
  return Object.fromEntries(body.map((d) => [d.id, d]));
}

export async function agents() {
  const { body } = await api('GET', '/agents');
  return body;
}

/** Polls `probe` until it returns something truthy; fails with `what` after `timeout` ms. */
export async function eventually(what, probe, { timeout = 30_000, every = 200 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Waits until no device is joined (the previous test file's pages have gone). */
export function noDevicesLeft() {
  return eventually('no device joined', async () => Object.keys(await devices()).length === 0, { timeout: 20_000 });
}

export function outFile(name) {
  mkdirSync(OUT, { recursive: true });
  return join(OUT, name);
}

/**
 * Saves a full-page screenshot of `page` as `name` under OUT, decodes it and checks that it holds the
 * whole page (as wide and as high as the document); returns the decoded image.
 */
export async function wholePageScreenshot(page, name) {
  const file = outFile(name);
  await page.screenshot({ path: file, fullPage: true });
  const image = decodePng(readFileSync(file));
  const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
  if (image.width !== size.width || image.height !== size.height) {
    throw new Error(`${name} is ${image.width}x${image.height}, the page ${size.width}x${size.height}: the screenshot does not hold the whole page`);
  }
  return image;
}

/** A unique agent name per run, so a rerun against the same node never collides. */
export function uniqueName(prefix) {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
