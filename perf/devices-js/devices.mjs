// The load generator behind perf/devices (see perf/README.md, "Devices"): opens N device
// WebSockets to one Siebog node, joins each, heartbeats, measures the node's live heap per idle
// device, then has devices host Echo client agents (played here: the generator answers the frames
// itself, it does not run the agents' JavaScript) and counts round trips per second.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
// Loaded once the options are read: --help works before `npm ci` has installed it.
let WebSocket;
import * as frames from './frames.mjs';

const HELP = `Usage: perf/devices [options]

Opens N device WebSockets (/siebog/ws/device) to one node, joins each, keeps them heartbeating,
measures the node's live heap per idle device, then times Echo round trips between devices.

  --devices N       devices to open and join (default 19000)
  --seconds S       measured messaging window in seconds (default 20)
  --warmup S        messaging before the window, not counted (default 5)
  --pairs P         device pairs that exchange messages: a Ping agent on one device sends REQUESTs
                    to an Echo agent on another, which answers with an INFORM (default 500; 0 = none)
  --window W        REQUESTs in flight per pair (default 1)
  --concurrency C   handshakes + joins in flight while opening (default 200)
  --settle S        seconds to let the node idle before measuring its heap (default 10)
  --url URL         the node (default: the one perf/devices starts, http://127.0.0.1:11580/siebog)
  --node-pid PID    the node's JVM, for jcmd heap measurements (perf/devices passes its own node's;
                    without it, against --url, the heap is not measured)
  --csv FILE        append the result row here (default perf/results/devices-<timestamp>.csv)
  --help            show this
`;

function parseArgs(argv) {
    const o = {
        devices: 19000, seconds: 20, warmup: 5, pairs: 500, window: 1, concurrency: 200, settle: 10,
        url: 'http://127.0.0.1:11580/siebog', nodePid: null, csv: null,
    };
    const numeric = { '--devices': 'devices', '--seconds': 'seconds', '--warmup': 'warmup', '--pairs': 'pairs',
        '--window': 'window', '--concurrency': 'concurrency', '--settle': 'settle', '--node-pid': 'nodePid' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--help' || a === '-h') {
            process.stdout.write(HELP);
            process.exit(0);
        } else if (numeric[a]) {
            const v = Number(argv[++i]);
            if (!Number.isFinite(v) || v < 0) usage(`${a} needs a number, got '${argv[i]}'`);
            o[numeric[a]] = v;
        } else if (a === '--url') {
            o.url = argv[++i]?.replace(/\/+$/, '');
        } else if (a === '--csv') {
            o.csv = argv[++i];
        } else {
            usage(`unknown option ${a}`);
        }
    }
    if (o.devices < 1) usage('--devices must be at least 1');
    if (o.pairs * 2 > o.devices) usage(`--pairs ${o.pairs} needs ${o.pairs * 2} devices; --devices is ${o.devices}`);
    if (o.concurrency < 1 || o.window < 1) usage('--concurrency and --window must be at least 1');
    return o;
}

function usage(message) {
    process.stderr.write(`[devices] ${message}\n\n${HELP}`);
    process.exit(2);
}

const log = (m) => process.stderr.write(`[devices] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n) => Math.round(n).toLocaleString('en-US');

// --- the node's heap (jcmd) -----------------------------------------------------------------------

/** A live-object histogram (jcmd GC.class_histogram runs a full GC first): class → {instances, bytes}. */
function liveHistogram(pid) {
    const out = execFileSync('jcmd', [String(pid), 'GC.class_histogram'], { maxBuffer: 256 << 20, encoding: 'utf8' });
    const classes = new Map();
    let total = 0;
    for (const line of out.split('\n')) {
        const m = line.match(/^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)/);
        if (m) {
            classes.set(m[3], { instances: Number(m[1]), bytes: Number(m[2]) });
        } else {
            const t = line.match(/^Total\s+\d+\s+(\d+)/);
            if (t) total = Number(t[1]);
        }
    }
    return { classes, total };
}

/** The heap in use right after a full GC, as the collector reports it (GC.heap_info). */
function heapUsedAfterGc(pid) {
    execFileSync('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8' });
    const out = execFileSync('jcmd', [String(pid), 'GC.heap_info'], { encoding: 'utf8' });
    const m = out.match(/used (\d+)K/);
    return m ? Number(m[1]) * 1024 : NaN;
}

/** CPU seconds the process has used (user + system), from /proc. */
function nodeCpuSeconds(pid) {
    if (!pid) return NaN;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function measureHeap(pid) {
    const used = heapUsedAfterGc(pid);
    const histogram = liveHistogram(pid);
    return { used, live: histogram.total, classes: histogram.classes };
}

function topGrowth(before, after, n, devices) {
    const rows = [];
    for (const [name, a] of after.classes) {
        const b = before.classes.get(name) ?? { instances: 0, bytes: 0 };
        rows.push({ name, bytes: a.bytes - b.bytes, instances: a.instances - b.instances });
    }
    rows.sort((x, y) => y.bytes - x.bytes);
    return rows.slice(0, n).map((r) => ({ ...r, bytesPerDevice: r.bytes / devices, perDevice: r.instances / devices }));
}

// --- devices ---------------------------------------------------------------------------------------

const stats = { opened: 0, joined: 0, failed: 0, closedEarly: 0, closeCodes: new Map(), errors: 0, heartbeats: 0 };

class Device {
    constructor(index, wsUrl, handlers) {
        this.index = index;
        this.id = null;
        this.joined = false;
        this.closed = false;
        this.timer = null;
        this.handlers = handlers;
        this.welcome = new Promise((resolve, reject) => {
            this.resolveWelcome = resolve;
            this.rejectWelcome = reject;
        });
        this.ws = new WebSocket(wsUrl, { perMessageDeflate: false, handshakeTimeout: 60_000 });
        this.ws.on('open', () => {
            stats.opened++;
            this.send(frames.join(10, `perf-${index}`));
        });
        this.ws.on('message', (data) => this.onFrame(JSON.parse(data.toString())));
        this.ws.on('error', (e) => this.rejectWelcome(e));
        this.ws.on('close', (code) => {
            this.closed = true;
            clearInterval(this.timer);
            if (this.joined && !this.leaving) {
                stats.closedEarly++;
                stats.closeCodes.set(code, (stats.closeCodes.get(code) ?? 0) + 1);
            }
            this.rejectWelcome(new Error(`closed with ${code} before welcome`));
        });
    }

    send(frame) {
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
    }

    onFrame(f) {
        switch (f.op) {
            case 'welcome':
                this.id = f.device;
                this.joined = true;
                stats.joined++;
                // Spread the heartbeats over the interval so they do not all arrive at once.
                setTimeout(() => {
                    this.heartbeat();
                    this.timer = setInterval(() => this.heartbeat(), f.heartbeatMs);
                }, Math.random() * f.heartbeatMs);
                this.resolveWelcome(this);
                break;
            case 'heartbeat':
                break;
            case 'start':
                this.send(frames.started(f.aid));
                break;
            case 'stop':
                this.send(frames.stopped(f.aid));
                break;
            case 'deliver':
                this.send(frames.ack(f.aid, f.seq));
                this.handlers.deliver(this, f.aid, f.message);
                break;
            case 'error':
                if (stats.errors++ < 5) log(`device ${this.id ?? this.index}: error ${f.status} ${f.error}`);
                break;
            default:
                break;
        }
    }

    heartbeat() {
        stats.heartbeats++;
        this.send(frames.heartbeat());
    }

    held() {
        return this.joined && !this.closed && this.ws.readyState === WebSocket.OPEN;
    }

    leave() {
        this.leaving = true;
        clearInterval(this.timer);
        this.ws.terminate();
    }
}

async function openAll(o, wsUrl, handlers) {
    const devices = new Array(o.devices);
    let next = 0;
    const started = Date.now();
    const progress = setInterval(() => log(`  ${fmt(stats.joined)} joined, ${fmt(stats.failed)} failed, `
        + `${((Date.now() - started) / 1000).toFixed(0)} s`), 5_000);
    async function worker() {
        while (next < o.devices) {
            const i = next++;
            const d = new Device(i, wsUrl, handlers);
            devices[i] = d;
            try {
                await d.welcome;
            } catch (e) {
                stats.failed++;
                if (stats.failed <= 5) log(`device ${i} failed to join: ${e.message}`);
                d.ws.terminate();
            }
        }
    }
    await Promise.all(Array.from({ length: Math.min(o.concurrency, o.devices) }, worker));
    clearInterval(progress);
    return { devices, seconds: (Date.now() - started) / 1000 };
}

// --- messaging: Ping on one device, Echo on another -------------------------------------------------

/** The REST API's admin login: SIEBOG_ADMIN_PASSWORD, else the one ./siebog run keeps (run from the repository's root). */
function adminAuthorization() {
    const password = process.env.SIEBOG_ADMIN_PASSWORD
        || readFileSync('target/siebog-credentials', 'utf8').split('\n').findLast((l) => l.startsWith('admin='))?.slice(6);
    if (!password) throw new Error('no admin password: set SIEBOG_ADMIN_PASSWORD or start the node with ./siebog run');
    return `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
}

async function rest(o, method, path, body) {
    const res = await fetch(`${o.url}/api/${path}`, {
        method,
        headers: { Authorization: adminAuthorization(), ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
}

async function placePairs(o, joined, run) {
    const pairs = [];
    let next = 0;
    async function worker() {
        while (next < o.pairs) {
            const i = next++;
            const pingDevice = joined[2 * i];
            const echoDevice = joined[2 * i + 1];
            const echo = await rest(o, 'POST', 'agents', { agentClass: 'Echo', name: `${run}-echo-${i}`, device: echoDevice.id });
            const ping = await rest(o, 'POST', 'agents', { agentClass: 'Echo', name: `${run}-ping-${i}`, device: pingDevice.id });
            pairs[i] = { ping: ping.aid, echo: echo.aid, device: pingDevice, roundTrips: 0 };
        }
    }
    await Promise.all(Array.from({ length: Math.min(16, o.pairs) }, worker));
    return pairs;
}

async function main() {
    const o = parseArgs(process.argv.slice(2));
    ({ default: WebSocket } = await import('ws'));
    const wsUrl = `${o.url.replace(/^http/, 'ws')}/ws/device`;
    const run = `perf-${Date.now().toString(36)}`;
    const csv = o.csv ?? `perf/results/devices-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`;

    await rest(o, 'GET', 'nodes'); // fail early when the node is not there
    let before = null;
    if (o.nodePid) {
        log(`node PID ${o.nodePid}: live heap before the devices (full GC)`);
        before = measureHeap(o.nodePid);
        log(`  ${(before.live / 1048576).toFixed(1)} MB live (${(before.used / 1048576).toFixed(1)} MB used after GC)`);
    }

    // Messaging state: what each pair's Ping is waiting for.
    const byPing = new Map();
    let measuring = false;
    let running = false;
    let roundTrips = 0;
    const handlers = {
        deliver(device, aid, message) {
            if (message.performative === 'REQUEST') {
                // The Echo agent: answer with an INFORM carrying the same content.
                device.send(frames.send(frames.message('INFORM', aid, [message.sender], message.content)));
            } else if (message.performative === 'INFORM') {
                const pair = byPing.get(aid);
                if (!pair) return;
                if (measuring) {
                    roundTrips++;
                    pair.roundTrips++;
                }
                if (running) request(pair);
            }
        },
    };
    const request = (pair) => pair.device.send(frames.send(frames.message('REQUEST', pair.ping, [pair.echo], 'ping')));

    log(`opening ${fmt(o.devices)} devices at ${wsUrl} (${o.concurrency} joins in flight)`);
    const joinCpu0 = nodeCpuSeconds(o.nodePid);
    const { devices, seconds: joinSeconds } = await openAll(o, wsUrl, handlers);
    const joined = devices.filter((d) => d.held());
    const joinCpuMs = 1000 * (nodeCpuSeconds(o.nodePid) - joinCpu0) / Math.max(1, joined.length);
    log(`${fmt(joined.length)} of ${fmt(o.devices)} joined in ${joinSeconds.toFixed(1)} s (${fmt(joined.length / joinSeconds)}/s); `
        + `${fmt(stats.failed)} failed` + (o.nodePid ? `; the node spent ${joinCpuMs.toFixed(2)} ms of CPU per join` : ''));

    let after = null;
    let perDevice = NaN;
    log(`idling ${o.settle} s (heartbeats only)`);
    const cpu0 = o.nodePid ? nodeCpuSeconds(o.nodePid) : NaN;
    const own0 = process.cpuUsage();
    await sleep(o.settle * 1000);
    const idleCpu = (nodeCpuSeconds(o.nodePid) - cpu0) / o.settle;
    const ownCpu = ((u) => (u.user + u.system) / 1e6 / o.settle)(process.cpuUsage(own0));
    log(`  CPU while idle: node ${o.nodePid ? `${(100 * idleCpu).toFixed(0)}%` : 'not measured'}, `
        + `generator ${(100 * ownCpu).toFixed(0)}% (of one core)`);
    const idleHeld = devices.filter((d) => d?.held()).length;
    if (o.nodePid) {
        log('live heap with the devices joined and idle (full GC)');
        after = measureHeap(o.nodePid);
        perDevice = (after.live - before.live) / idleHeld;
        log(`  ${(after.live / 1048576).toFixed(1)} MB live (${(after.used / 1048576).toFixed(1)} MB used after GC): `
            + `${fmt(perDevice)} bytes per idle device over ${fmt(idleHeld)} devices`);
        log('  what a device costs (live growth by class, top 20):');
        log(`    ${'bytes/device'.padStart(12)} ${'objects/device'.padStart(14)}  class`);
        const growth = topGrowth(before, after, Infinity, idleHeld);
        const line = (r) => `    ${r.bytesPerDevice.toFixed(1).padStart(12)} ${r.perDevice.toFixed(2).padStart(14)}  ${r.name}`;
        growth.slice(0, 20).forEach((r) => log(line(r)));
        const classesFile = csv.replace(/\.csv$/, '') + '-classes.txt';
        mkdirSync(dirname(classesFile), { recursive: true });
        writeFileSync(classesFile, `# live heap growth by class per idle device (${idleHeld} devices)\n`
            + `#   ${'bytes/device'.padStart(12)} ${'objects/device'.padStart(14)}  class\n`
            + growth.filter((r) => r.bytes !== 0).map(line).join('\n') + '\n');
        log(`  every class: ${classesFile}`);
    }

    let rtPerSec = 0;
    let measuredCpu = { nodeUsPerRt: NaN, generatorUsPerRt: NaN };
    let pairs = [];
    if (o.pairs > 0 && joined.length >= 2 * o.pairs) {
        log(`placing ${o.pairs} Ping/Echo pairs on ${2 * o.pairs} of the devices`);
        pairs = await placePairs(o, joined, run);
        for (const p of pairs) byPing.set(p.ping, p);
        running = true;
        for (const p of pairs) for (let k = 0; k < o.window; k++) request(p);
        log(`warming up ${o.warmup} s`);
        await sleep(o.warmup * 1000);
        measuring = true;
        const t0 = process.hrtime.bigint();
        const nodeCpu0 = nodeCpuSeconds(o.nodePid);
        const ownCpu0 = process.cpuUsage();
        log(`measuring ${o.seconds} s with ${fmt(devices.filter((d) => d?.held()).length)} devices held`);
        await sleep(o.seconds * 1000);
        measuring = false;
        const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
        const nodeCpu = nodeCpuSeconds(o.nodePid) - nodeCpu0;
        const ownCpu = ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(ownCpu0));
        running = false;
        rtPerSec = roundTrips / elapsed;
        // Both share the machine's cores: a slower node per round trip leaves the generator less, and the other way round.
        measuredCpu = { nodeUsPerRt: 1e6 * nodeCpu / roundTrips, generatorUsPerRt: 1e6 * ownCpu / roundTrips };
        const rates = pairs.map((p) => p.roundTrips / elapsed).sort((a, b) => a - b);
        log(`${fmt(roundTrips)} round trips in ${elapsed.toFixed(1)} s: ${fmt(rtPerSec)} round trips/s `
            + `(${fmt(2 * rtPerSec)} messages/s); per pair slowest ${rates[0].toFixed(1)}, median `
            + `${rates[rates.length >> 1].toFixed(1)}, fastest ${rates[rates.length - 1].toFixed(1)} rt/s`);
        log(`  CPU per round trip: node ${o.nodePid ? `${measuredCpu.nodeUsPerRt.toFixed(1)} µs` : 'not measured'}, `
            + `generator ${measuredCpu.generatorUsPerRt.toFixed(1)} µs (node ${(100 * nodeCpu / elapsed).toFixed(0)}%, `
            + `generator ${(100 * ownCpu / elapsed).toFixed(0)}% of one core)`);
        await sleep(1000); // let the last round trips land before the agents go
        for (let i = 0; i < pairs.length; i += 16) {
            await Promise.all(pairs.slice(i, i + 16).flatMap((p) => [p.ping, p.echo]
                .map((aid) => rest(o, 'DELETE', `agents/${encodeURIComponent(aid)}`).catch(() => {}))));
        }
    }

    const held = devices.filter((d) => d?.held()).length;
    const codes = [...stats.closeCodes].map(([c, n]) => `${c}×${n}`).join(' ') || 'none';
    log(`held at the end: ${fmt(held)} of ${fmt(o.devices)}; closed by the node meanwhile: ${fmt(stats.closedEarly)} (codes ${codes})`);
    for (const d of devices) d?.leave();

    const row = {
        devices: o.devices, held, joinSeconds: joinSeconds.toFixed(1),
        liveHeapBeforeBytes: before?.live ?? '', liveHeapAfterBytes: after?.live ?? '',
        heapBytesPerIdleDevice: Number.isFinite(perDevice) ? Math.round(perDevice) : '',
        nodeCpuIdlePct: Number.isFinite(idleCpu) ? Math.round(100 * idleCpu) : '',
        pairs: pairs.length, seconds: o.seconds, roundTrips, roundTripsPerSec: Math.round(rtPerSec),
        messagesPerSec: Math.round(2 * rtPerSec),
        nodeCpuUsPerRt: Number.isFinite(measuredCpu.nodeUsPerRt) ? measuredCpu.nodeUsPerRt.toFixed(1) : '',
        generatorCpuUsPerRt: Number.isFinite(measuredCpu.generatorUsPerRt) ? measuredCpu.generatorUsPerRt.toFixed(1) : '',
    };
    mkdirSync(dirname(csv), { recursive: true });
    if (!existsSync(csv)) appendFileSync(csv, `${Object.keys(row).join(',')}\n`);
    appendFileSync(csv, `${Object.values(row).join(',')}\n`);
    process.stdout.write(`${Object.keys(row).join(',')}\n${Object.values(row).join(',')}\n`);
    log(`CSV: ${csv}`);
    // Give the closes a moment to go out, then end (the sockets' timers would keep us alive).
    await sleep(500);
    process.exit(held === o.devices ? 0 : 1);
}

main().catch((e) => {
    log(`failed: ${e.stack ?? e}`);
    process.exit(1);
});
