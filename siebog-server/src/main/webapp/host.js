// The host page: joins this tab to the cluster on open, shows what it does, and runs the TSP and book trading demos.
import { Device } from '/siebog/js/siebog.js';

const $ = (id) => document.getElementById(id);
const ui = {
  state: $('connection-state'),
  deviceId: $('device-id'),
  computeUnits: $('compute-units'),
  agentCount: $('agent-count'),
  rate: $('messages-per-second'),
  joinLeave: $('join-leave'),
  agentRows: $('agents').tBodies[0],
  noAgents: $('no-agents'),
  log: $('log'),
  startDemo: $('start-demo'),
  demoStatus: $('demo-status'),
  demoLogin: $('demo-login'),
  demoUser: $('demo-user'),
  demoPassword: $('demo-password'),
  demoCoordinator: $('demo-coordinator'),
  demoRounds: $('demo-rounds'),
  demoBest: $('demo-best-length'),
  canvas: $('demo-canvas'),
  startBooks: $('start-books'),
  booksStatus: $('books-status'),
  books: $('books'),
};

const STATE_TEXT = {
  measuring: 'Measuring this device’s speed…',
  connecting: 'Connecting to the cluster…',
  joined: 'Joined: this tab is part of the cluster.',
  reconnecting: 'Connection lost; reconnecting…',
  left: 'Not joined. Press Join to lend this tab to the cluster again.',
};

// ---- the device --------------------------------------------------------------------------------

// `?cu=N` (0 < N ≤ 1,000,000) claims N compute units: a node that trusts claims
// (siebog.device.trust-claimed-compute-units, for tests and demos that need a known placement)
// takes them; any other measures the device and ignores the claim. `?label=...` names the device in GET /api/devices. `?token=...`
// is the join token of a private node (siebog.device.join-token), e.g. in a bookmark on a lab's PCs.
const params = new URLSearchParams(location.search);
const device = new Device({
  label: params.get('label') || browserLabel(),
  computeUnits: forcedComputeUnits(params.get('cu')),
  token: params.get('token') || undefined,
});
// For the browser console and the end-to-end tests (e.g. siebogDevice.addEventListener('statesaved', …)).
window.siebogDevice = device;

function forcedComputeUnits(text) {
  if (text === null) return undefined;
  const cu = Number(text);
  if (cu > 0 && cu <= 1_000_000) return cu;
  console.warn(`ignoring ?cu=${text}: it must be a number above 0 and at most 1000000`);
  return undefined;
}

device.addEventListener('state', ({ detail: { state } }) => {
  showState(STATE_TEXT[state] ?? state, state === 'joined' ? 'joined' : state === 'reconnecting' ? 'problem' : null);
  ui.joinLeave.textContent = state === 'left' ? 'Join' : 'Leave';
  ui.joinLeave.disabled = state === 'measuring';
  if (state !== 'joined') ui.deviceId.textContent = '—';
});

device.addEventListener('joined', ({ detail }) => {
  ui.deviceId.textContent = detail.device;
  ui.computeUnits.textContent = formatNumber(detail.computeUnits);
  log(`Joined as ${detail.device} with ${formatNumber(detail.computeUnits)} compute units.`);
});

device.addEventListener('agents', ({ detail }) => showAgents(detail.agents));

device.addEventListener('stats', ({ detail }) => {
  ui.rate.textContent = formatNumber(detail.messagesPerSecond, 1);
  showAgents(detail.agents);
});

device.addEventListener('agenterror', ({ detail }) => {
  log(`Agent ${detail.aid} failed in ${detail.phase}: ${detail.error}`, true);
});

device.addEventListener('error', ({ detail }) => {
  log(`${detail.aid ? `${detail.aid}: ` : ''}${detail.error} (${detail.status})`, true);
});

device.addEventListener('closed', ({ detail }) => {
  const why = detail.reason ? `: ${detail.reason}` : '';
  log(`Connection closed (${detail.code}${why})${detail.reconnecting ? '; reconnecting as a new device.' : '.'}`, detail.reconnecting);
});

ui.joinLeave.addEventListener('click', async () => {
  ui.joinLeave.disabled = true;
  try {
    if (device.state === 'left') await join();
    else await device.leave();
  } finally {
    ui.joinLeave.disabled = false;
  }
});

async function join() {
  try {
    await device.connect();
  } catch (e) {
    showState(`Could not join: ${e.message}`, 'problem');
    log(`Could not join: ${e.message}`, true);
  }
}

function showState(text, kind) {
  ui.state.textContent = text;
  ui.state.className = kind ? `state-${kind}` : '';
}

function showAgents(agents) {
  ui.agentCount.textContent = String(agents.length);
  ui.noAgents.hidden = agents.length > 0;
  const rows = agents.map((agent) => {
    const row = document.createElement('tr');
    for (const [text, cls] of [[agent.aid], [agent.agentClass], [agent.state], [String(agent.handled), 'number']]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (cls) cell.className = cls;
      row.append(cell);
    }
    row.dataset.aid = agent.aid;
    return row;
  });
  ui.agentRows.replaceChildren(...rows);
}

function log(text, problem = false) {
  const item = document.createElement('li');
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = now.toLocaleTimeString();
  item.append(time, text);
  if (problem) item.className = 'problem';
  ui.log.prepend(item);
  while (ui.log.children.length > 30) ui.log.lastElementChild.remove();
}

function browserLabel() {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari' : 'a browser';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows'
    : /Mac OS/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : 'an unknown system';
  return `${browser} on ${os}`;
}

function formatNumber(n, digits = 2) {
  return Number(n).toLocaleString(undefined, { maximumFractionDigits: digits });
}

// ---- the TSP demo ------------------------------------------------------------------------------

let demo = null; // {aid, timer}

ui.demoLogin.addEventListener('submit', (event) => {
  event.preventDefault();
  startDemo();
});

async function startDemo() {
  ui.startDemo.disabled = true;
  if (demo) clearTimeout(demo.timer);
  demo = null;
  ui.demoStatus.textContent = 'Starting the coordinator…';
  try {
    const { aid } = await api('/siebog/api/agents', {
      agentClass: 'TspCoordinator',
      name: `tsp-${Date.now()}`,
      args: { cities: '60', ants: '4', rounds: '100' },
    });
    demo = { aid, timer: null };
    ui.demoCoordinator.textContent = aid;
    ui.demoStatus.textContent = 'Running: the ant colonies are searching.';
    poll(demo);
  } catch (e) {
    // Volunteers need no account to host agents, but starting the demo starts a server agent: an
    // admin's call.
    // The demo's agents (TspCoordinator and its TspAnt client agents) are examples: a deployment of their
    // own beside Siebog (siebog-examples.war, which ./siebog run deploys), not part of the platform.
    ui.demoStatus.textContent = e.status === 401 || e.status === 403
      ? `Starting the demo needs a Siebog admin login: ${e.message}`
      : e.status === 400 && /TspCoordinator/.test(e.message)
        ? `The TSP demo needs Siebog's examples deployed on this node (siebog-examples.war): ${e.message}`
        : `Could not start the demo: ${e.message}`;
    ui.startDemo.disabled = false;
  }
}

/** Asks the coordinator for its status, draws it, and asks again a second later until it is done. */
async function poll(run) {
  let finished = false;
  try {
    const reply = await api('/siebog/api/messages?awaitReplyMs=2000', { performative: 'QUERY_REF', receivers: [run.aid] });
    const status = JSON.parse(reply.content);
    showDemo(status);
    finished = status.roundsDone >= status.rounds;
    if (finished) ui.demoStatus.textContent = `Finished: ${status.rounds} rounds, best tour ${formatNumber(status.bestLength)}.`;
  } catch (e) {
    if (e.status === 404) {
      ui.demoStatus.textContent = 'The coordinator is gone; start the demo again.';
      finished = true;
    } else if (e.status !== 504) {
      // A slow answer (504) just means a busy coordinator; anything else is worth showing.
      ui.demoStatus.textContent = `Could not read the demo’s status: ${e.message}`;
    }
  }
  if (demo !== run) return; // a newer demo took over
  if (finished) {
    ui.startDemo.disabled = false;
    demo = null;
  } else {
    run.timer = setTimeout(() => poll(run), 1000);
  }
}

function showDemo(status) {
  ui.demoRounds.textContent = `${status.roundsDone} of ${status.rounds}`;
  ui.demoBest.textContent = status.bestLength == null ? '—' : formatNumber(status.bestLength);
  draw(status.cities, status.best);
  ui.canvas.setAttribute('aria-label', status.best
    ? `${status.cities.length} cities and the best tour found so far, ${formatNumber(status.bestLength)} long, after ${status.roundsDone} rounds.`
    : `${status.cities.length} cities; no tour found yet.`);
}

function draw(cities, tour) {
  const ctx = ui.canvas.getContext('2d');
  const { width, height } = ui.canvas;
  ctx.clearRect(0, 0, width, height);
  if (!cities?.length) return;
  const xs = cities.map((c) => c[0]);
  const ys = cities.map((c) => c[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const span = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY) || 1;
  const margin = 20;
  const scale = (Math.min(width, height) - 2 * margin) / span;
  const at = ([x, y]) => [margin + (x - minX) * scale, margin + (y - minY) * scale];

  if (tour?.length) {
    ctx.beginPath();
    tour.forEach((city, i) => {
      const [x, y] = at(cities[city]);
      if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    });
    ctx.closePath();
    ctx.strokeStyle = '#0b5cad';
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  ctx.fillStyle = '#1a1a1a';
  for (const city of cities) {
    const [x, y] = at(city);
    ctx.beginPath();
    ctx.arc(x, y, 4, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/**
 * POSTs JSON as the admin typed in the demo's form; resolves with the JSON answer, or rejects with
 * the server's {"error"} and status. The login goes in the request itself and the browser's own
 * credentials are left out: a 401 then comes back to the page instead of opening the browser's
 * login dialog (which headless browsers cannot answer).
 */
async function api(path, body) {
  const login = btoa(String.fromCharCode(...new TextEncoder().encode(`${ui.demoUser.value}:${ui.demoPassword.value}`)));
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Basic ${login}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below with the status
  }
  if (!response.ok) {
    const error = new Error(json?.error ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

// ---- the book trading demo ---------------------------------------------------------------------

let books = null; // {agents: [{aid, role}], timer}

ui.startBooks.addEventListener('click', () => startBooks());

/**
 * Starts a round: three BookSellers and a BookBuyer on the server, a BrowserBookBuyer on this
 * device (when it is joined; else wherever the cluster places it), then asks each every second
 * what it has (sellers: their catalogue; buyers: what they bought) until both buyers are done.
 */
async function startBooks() {
  ui.startBooks.disabled = true;
  if (books) clearTimeout(books.timer);
  books = null;
  ui.booksStatus.textContent = 'Starting the sellers and the buyers…';
  const round = `books-${Date.now().toString(36)}`;
  const device = /^d-[0-9a-f]{8}$/.test(ui.deviceId.textContent) ? ui.deviceId.textContent : undefined;
  const wanted = [
    { agentClass: 'BookSeller', name: `${round}-seller-a`, role: 'seller, server', args: { catalogue: 'Moby Dick=12.50;Ulysses=18.00' } },
    { agentClass: 'BookSeller', name: `${round}-seller-b`, role: 'seller, server', args: { catalogue: 'Moby Dick=10.99;Dracula=7.25' } },
    { agentClass: 'BookSeller', name: `${round}-seller-c`, role: 'seller, server', args: { catalogue: 'Dracula=9.00;Ulysses=15.00' } },
    { agentClass: 'BookBuyer', name: `${round}-buyer`, role: 'buyer, server', args: { title: 'Moby Dick', maxPrice: '11.00' } },
    { agentClass: 'BrowserBookBuyer', name: `${round}-browser-buyer`, role: 'buyer, browser', args: { title: 'Dracula', maxPrice: '8.00' }, device },
  ];
  try {
    const started = [];
    for (const { agentClass, name, role, args, device: on } of wanted) {
      const { aid } = await api('/siebog/api/agents', { agentClass, name, args, ...(on ? { device: on } : {}) });
      started.push({ aid, role, now: '…' });
    }
    books = { agents: started, timer: null };
    ui.booksStatus.textContent = 'Trading: the buyers are calling for proposals.';
    showBooks(books);
    pollBooks(books);
  } catch (e) {
    ui.booksStatus.textContent = e.status === 401 || e.status === 403
      ? `Starting book trading needs a Siebog admin login: ${e.message}`
      : e.status === 400 && /Book/.test(e.message)
        ? `Book trading needs Siebog's examples deployed on this node (siebog-examples.war): ${e.message}`
        : `Could not start book trading: ${e.message}`;
    ui.startBooks.disabled = false;
  }
}

async function pollBooks(run) {
  for (const agent of run.agents) {
    try {
      agent.now = (await api('/siebog/api/messages?awaitReplyMs=2000', { performative: 'QUERY_REF', receivers: [agent.aid] })).content;
    } catch (e) {
      agent.now = e.status === 404 ? 'gone' : agent.now;
    }
  }
  if (books !== run) return; // a newer round took over
  showBooks(run);
  const buyers = run.agents.filter((a) => a.role.startsWith('buyer'));
  if (buyers.every((b) => b.now.startsWith('bought ') || b.now === 'gone')) {
    ui.booksStatus.textContent = `Done: ${buyers.map((b) => b.now).join('; ')}.`;
    ui.startBooks.disabled = false;
    books = null;
  } else {
    run.timer = setTimeout(() => pollBooks(run), 1000);
  }
}

function showBooks(run) {
  const rows = run.agents.map(({ aid, role, now }) => {
    const row = document.createElement('tr');
    for (const text of [aid, role, now]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  ui.books.tBodies[0].replaceChildren(...rows);
}

// ---- go ----------------------------------------------------------------------------------------

join();
