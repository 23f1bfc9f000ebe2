// The console (docs/admin.md, "Console"): what the REST API shows of the cluster, kept up to date.
// The browser logs in once (HTTP Basic, the API's own accounts) and sends the same credentials with
// every call here; the API decides what each role may do, the console only shows it.

import { PERFORMATIVES } from '/siebog/js/acl.js';

const API = '/siebog/api';
const REFRESH_MS = 2000;
const MAX_EVENTS = 200;

const $ = (id) => document.getElementById(id);

async function get(path) {
  const response = await fetch(`${API}/${path}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/${path} answered ${response.status}`);
  return response.json();
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;
const perSecond = (rate) => rate.toFixed(rate < 10 ? 1 : 0);

/** Replaces a table's rows with one per item, in order, keyed by `key` (data-key, for tests and styles). */
function fill(table, items, key, columns) {
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const item of items) {
    const row = body.insertRow();
    row.dataset.key = key(item);
    columns(row, item);
  }
}

function showNodes(nodes) {
  fill($('nodes'), nodes, (n) => n.name, (row, n) => {
    const h = n.health;
    cell(row, n.name);
    cell(row, n.address ?? '—');
    cell(row, h ? 'up' : 'not answering', h ? 'up' : 'silent');
    cell(row, String(n.agents), 'number');
    cell(row, h ? String(h.devices) : '—', 'number');
    cell(row, h ? `${mb(h.heapUsedBytes)} of ${mb(h.heapMaxBytes)}` : '—', 'number');
    cell(row, h && h.cpuLoad >= 0 ? `${Math.round(h.cpuLoad * 100)}%` : '—', 'number');
    cell(row, h ? perSecond(h.admittedPerSecond) : '—', 'number');
    cell(row, h ? perSecond(h.deliveredPerSecond) : '—', 'number');
    cell(row, h ? String(h.mailboxBacklog) : '—', 'number');
    cell(row, h ? `${(h.replicationLagBytes / 1024).toFixed(0)} KB` : '—', 'number');
  });
}

function showDevices(devices) {
  fill($('devices'), devices, (d) => d.id, (row, d) => {
    cell(row, d.id);
    cell(row, d.label ?? '');
    cell(row, d.node);
    cell(row, String(d.computeUnits), 'number');
    cell(row, String(d.agents), 'number');
  });
  $('no-devices').hidden = devices.length > 0;
}

/** One line a person reads, per event type (docs/admin.md, "Events"). */
function describe(event) {
  const d = event.details;
  switch (event.type) {
    case 'node-joined': return `Node ${event.node} joined the cluster.`;
    case 'node-left': return `Node ${event.node} left the cluster.`;
    case 'failover': return `${event.node} took over ${d.agents} agents of ${d.departed} in ${d.ms} ms.`;
    case 'device-joined': return `Device ${d.device}${d.label ? ` (${d.label})` : ''} joined ${event.node} with ${d.computeUnits} compute units.`;
    case 'device-left': return `Device ${d.device} left ${event.node}.`;
    case 'agent-restarted': return `${d.agent} started again on device ${d.device} (state version ${d.stateVersion}).`;
    default: return `${event.type} on ${event.node}`;
  }
}

function showEvent(event) {
  const item = document.createElement('li');
  item.dataset.type = event.type;
  const time = document.createElement('time');
  time.dateTime = new Date(event.at).toISOString();
  time.textContent = new Date(event.at).toLocaleTimeString();
  item.append(time, describe(event));
  const list = $('events');
  list.prepend(item);
  while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
}

function followEvents() {
  const source = new EventSource(`${API}/events`);
  for (const type of ['node-joined', 'node-left', 'failover', 'device-joined', 'device-left', 'agent-restarted']) {
    source.addEventListener(type, (e) => showEvent(JSON.parse(e.data)));
  }
  // EventSource connects again by itself; a new stream starts with the recent events, so clear first.
  source.onopen = () => $('events').replaceChildren();
}

async function send(method, path, body) {
  const response = await fetch(`${API}/${path}`, {
    method,
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(json?.error ?? `${method} /api/${path} answered ${response.status}`);
  return json;
}

const say = (text) => { $('status').textContent = text; };

// ---- Agents: pages of GET /api/agents (limit, the Link header's cursor, filters); admins start, stop and send.

const PAGE = 50;
const agentsView = { filter: {}, page: null, next: null };

async function showAgents(cursor) {
  const query = new URLSearchParams({ limit: String(PAGE), ...agentsView.filter, ...(cursor ? { after: cursor } : {}) });
  const response = await fetch(`${API}/agents?${query}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/agents answered ${response.status}`);
  const agents = await response.json();
  agentsView.page = cursor;
  agentsView.next = new URL(response.headers.get('Link')?.match(/<([^>]+)>;\s*rel="next"/)?.[1] ?? 'x:', location.href).searchParams.get('after');
  $('agents-next').disabled = !agentsView.next;
  fill($('agents'), agents, (a) => a.aid, (row, a) => {
    cell(row, a.aid);
    cell(row, a.agentClass);
    cell(row, a.location);
    const actions = cell(row, '');
    actions.dataset.admin = '';
    const stop = document.createElement('button');
    stop.type = 'button';
    stop.textContent = 'Stop';
    stop.setAttribute('aria-label', `Stop ${a.aid}`);
    stop.addEventListener('click', () => act(`Stopped ${a.aid}.`, () => send('DELETE', `agents/${encodeURIComponent(a.aid)}`)));
    actions.append(stop);
  });
}

/** Runs an admin's action, says how it went, and shows the agents again. */
async function act(done, action) {
  try {
    await action();
    say(done);
  } catch (e) {
    say(`Refused: ${e.message}`);
  }
  await showAgents(agentsView.page).catch((e) => say(e.message));
}

/** A form's filled-in fields, by name. */
const fields = (form) => Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]).filter(([, v]) => v !== ''));

async function setUpAgents(me) {
  $('agent-filter').addEventListener('submit', (e) => {
    e.preventDefault();
    agentsView.filter = fields(e.target);
    showAgents(null).catch((err) => say(err.message));
  });
  $('agents-first').addEventListener('click', () => showAgents(null).catch((err) => say(err.message)));
  $('agents-next').addEventListener('click', () => showAgents(agentsView.next).catch((err) => say(err.message)));
  await showAgents(null);
  if (!me.roles.includes('siebog-admin')) return;

  const classes = await get('agent-classes');
  $('start-agent').agentClass.replaceChildren(...classes.map((c) => new Option(`${c.name} (${c.kind})`, c.name)));
  $('start-agent').addEventListener('submit', (e) => {
    e.preventDefault();
    const { args, ...start } = fields(e.target);
    act(`Started ${start.name}.`, async () => {
      const started = await send('POST', 'agents', { ...start, ...(args ? { args: JSON.parse(args) } : {}) });
      e.target.reset();
      return started;
    });
  });
  $('send-message').performative.replaceChildren(...PERFORMATIVES.map((p) => new Option(p, p, p === 'INFORM', p === 'INFORM')));
  $('send-message').addEventListener('submit', (e) => {
    e.preventDefault();
    const message = fields(e.target);
    message.receivers = message.receivers.split(',').map((r) => r.trim()).filter(Boolean);
    act(`Sent ${message.performative} to ${message.receivers.join(', ')}.`, () => send('POST', 'messages', message));
  });
}

async function refresh(me) {
  try {
    const [nodes, devices] = await Promise.all([get('nodes'), get('devices')]);
    showNodes(nodes);
    showDevices(devices);
    $('status').textContent = `Signed in as ${me.user} (${me.roles.join(', ')}). ${nodes.length} node${nodes.length === 1 ? '' : 's'}, `
      + `${devices.length} device${devices.length === 1 ? '' : 's'}; updated ${new Date().toLocaleTimeString()}.`;
  } catch (e) {
    $('status').textContent = `Could not reach the cluster: ${e.message}. Trying again.`;
  }
}

async function start() {
  let me;
  try {
    me = await get('me');
  } catch (e) {
    $('status').textContent = `Could not sign in: ${e.message}.`;
    return;
  }
  document.body.dataset.roles = me.roles.join(' ');
  followEvents();
  await refresh(me);
  await setUpAgents(me).catch((e) => say(`Could not list the agents: ${e.message}`));
  setInterval(() => refresh(me), REFRESH_MS);
}

start();
