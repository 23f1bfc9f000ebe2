// The node's meters as Prometheus sees them (docs/admin.md, "Metrics"): GET /api/metrics, parsed by
// the Prometheus project's own text-format parser (prometheus_client.parser, through
// e2e/prometheus-families.py; launcher/browser-tests.sh installs it in a venv under target/), and
// counters that move with the traffic this test makes: messages, a refusal, a failed login, a device
// and its agent's saved state; and GET /api/nodes' figures, read from the same meters.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN, BASE, agentStarter, basic, api, ask, eventually, launchBrowser, noDevicesLeft, openDevice, stopAgent, uniqueName } from './support.js';

const PYTHON = process.env.SIEBOG_E2E_PYTHON ?? 'python3';
const PARSER = join(dirname(fileURLToPath(import.meta.url)), 'prometheus-families.py');

/** Every meter of docs/admin.md's table: its family, as the format names it (a counter without _total), and type. */
const DOCUMENTED = {
  siebog_messages_admitted: 'counter',
  siebog_messages_delivered: 'counter',
  siebog_messages_handled_seconds: 'histogram',
  siebog_messages_handled_seconds_max: 'gauge',
  siebog_mailbox_depth: 'gauge',
  siebog_agents: 'gauge',
  siebog_link_batches: 'counter',
  siebog_link_messages: 'counter',
  siebog_link_bytes: 'counter',
  siebog_link_queued_bytes: 'gauge',
  siebog_replication_log_bytes: 'gauge',
  siebog_failover_agents: 'counter',
  siebog_failover_duration_seconds: 'histogram',
  siebog_devices: 'gauge',
  siebog_devices_joins: 'counter',
  siebog_client_agents: 'gauge',
  siebog_auth_failures: 'counter',
};

/** One scrape's families, by name: {type, samples: [{name, labels, value}]}. */
async function scrape() {
  const response = await fetch(`${BASE}/api/metrics`, { headers: { Authorization: basic(ADMIN.username, ADMIN.password) } });
  assert.equal(response.status, 200, 'GET /api/metrics');
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  const parsed = JSON.parse(execFileSync(PYTHON, [PARSER], { input: await response.text(), encoding: 'utf8' }));
  return new Map(parsed.map((family) => [family.name, family]));
}

/** The sum of the samples named `sample` whose labels include `labels`; 0 when there are none. */
function value(families, sample, labels = {}) {
  return [...families.values()].flatMap((f) => f.samples)
    .filter((s) => s.name === sample && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('metrics', () => {
  let browser;
  let device;
  const started = [];
  const start = agentStarter(started);

  before(async () => {
    await noDevicesLeft();
    browser = await launchBrowser();
  });

  after(async () => {
    for (const aid of started) await stopAgent(aid);
    await device?.close();
    await browser?.close();
  });

  test('the endpoint has every documented meter, with its type, and the JVM\'s; it needs a login', async () => {
    const anonymous = await fetch(`${BASE}/api/metrics`);
    assert.equal(anonymous.status, 401);
    const families = await scrape();
    for (const jvm of ['jvm_memory_used_bytes', 'jvm_gc_memory_allocated_bytes', 'jvm_threads_live_threads', 'process_cpu_usage', 'process_uptime_seconds']) {
      assert.ok(families.has(jvm), `the JVM's ${jvm} too`);
    }
    for (const [name, type] of Object.entries(DOCUMENTED)) {
      assert.ok(families.has(name), `${name} is scraped (have: ${[...families.keys()].filter((n) => n.startsWith('siebog')).join(', ')})`);
      assert.equal(families.get(name).type, type, `${name}'s type`);
    }
    const depth = families.get('siebog_mailbox_depth').samples.map((m) => m.labels.of).sort();
    assert.deepEqual(depth, ['max', 'sum']);
    const held = families.get('siebog_replication_log_bytes').samples.map((m) => m.labels.held).sort();
    assert.deepEqual(held, ['queued', 'stored']);
  });

  test('counters and gauges move with traffic', async () => {
    const before = await scrape();
    const pong = await start('Pong', 'metrics-pong');
    const asks = 20;
    for (let i = 0; i < asks; i++) {
      const { status } = await ask(pong.aid, `ping ${i}`);
      assert.equal(status, 200);
    }
    const unknown = await api('POST', '/messages', { performative: 'INFORM', receivers: [`${uniqueName('nobody')}@siebog`], content: 'x' });
    assert.equal(unknown.status, 404);
    const wrongLogin = await api('GET', '/nodes', undefined, { authorization: basic('admin', 'not-the-password') });
    assert.equal(wrongLogin.status, 401);
    device = await openDevice(browser, { cu: 100, label: 'e2e metrics' });
    const keeper = await start('Keeper', 'metrics-keeper', { device: device.id });
    const saved = await ask(keeper.aid, JSON.stringify({ save: 'metered' }));
    assert.equal(saved.body?.performative, 'INFORM', JSON.stringify(saved.body)); // its state is in Cassandra

    const after = await eventually('the messages delivered', async () => {
      const families = await scrape();
      const delivered = value(families, 'siebog_messages_delivered_total') - value(before, 'siebog_messages_delivered_total');
      return delivered >= 2 * asks ? families : null; // each ask to Pong, and each answer to its reply inbox
    }, { timeout: 10_000 });
    const moved = (name, labels) => value(after, name, labels) - value(before, name, labels);
    assert.ok(moved('siebog_messages_admitted_total') >= 2 * asks, `admitted moved by ${moved('siebog_messages_admitted_total')}`);
    assert.equal(moved('siebog_messages_refused_total', { reason: 'unknown-agent' }), 1, 'the message to nobody, refused');
    assert.equal(moved('siebog_auth_failures_total'), 1, 'the wrong password');
    assert.equal(moved('siebog_devices_joins_total'), 1, 'the device that joined');
    assert.equal(value(after, 'siebog_devices'), 1, 'one device joined now');
    assert.ok(value(after, 'siebog_client_agents') >= 1, 'the Keeper on the device has its proxy here');
    assert.ok(value(after, 'siebog_agents') >= 2, 'Pong and the Keeper run here');
    assert.equal(moved('siebog_state_store_seconds_count', { op: 'write', outcome: 'ok' }), 1, "the Keeper's save, written to Cassandra");
    // Timed: each mailbox's first message (each reply inbox's only one), then one in eight (Pong's 9th and 17th).
    assert.ok(moved('siebog_messages_handled_seconds_count') >= asks + 2, `timed ${moved('siebog_messages_handled_seconds_count')}`);
    const slowest = value(after, 'siebog_messages_handled_seconds_max');
    assert.ok(slowest > 0 && slowest < 10, `the slowest handler took ${slowest} s`);

    // GET /nodes reads the same meters: the asks show in its rates (over the last 10 s).
    const { status, body } = await api('GET', '/nodes');
    assert.equal(status, 200);
    const { health } = body.find((n) => n.name === 'node1');
    assert.ok(health.admittedPerSecond > 0 && health.deliveredPerSecond > 0, JSON.stringify(health));
    assert.equal(health.devices, 1, JSON.stringify(health));
    assert.ok(health.heapUsedBytes > 0 && health.heapUsedBytes <= health.heapMaxBytes, JSON.stringify(health));
  });
});
