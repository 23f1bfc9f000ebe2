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
    cell(row, d.messagesPerSecond == null ? '—' : perSecond(d.messagesPerSecond), 'number');
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
    case 'node-rejoined': return `${event.node} lost touch with the cluster and rejoined empty (its ${d.dropped} agents carry on elsewhere) in ${d.ms} ms.`;
    case 'device-joined': return `Device ${d.device}${d.label ? ` (${d.label})` : ''} joined ${event.node} with ${d.computeUnits} compute units.`;
    case 'device-left': return `Device ${d.device} left ${event.node}.`;
    case 'agent-restarted': return `${d.agent} started again on device ${d.device} (state version ${d.stateVersion}).`;
    case 'agent-moved': return `${d.agent} moved from ${d.from} to ${d.to} in ${d.ms} ms.`;
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
  for (const type of ['node-joined', 'node-left', 'failover', 'node-rejoined', 'device-joined', 'device-left', 'agent-restarted', 'agent-moved']) {
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
    stop.addEventListener('click', () => act(`Stopped ${a.aid}.`, () => send('DELETE', `agents/${encodeURIComponent(a.aid)}`), a.aid));
    const watch = document.createElement('button');
    watch.type = 'button';
    watch.textContent = 'Messages';
    watch.setAttribute('aria-label', `Show the messages of ${a.aid} in the sniffer`);
    watch.addEventListener('click', () => sniff({ agents: [a.aid], conversations: [] }, true));
    actions.append(stop, ' ', watch);
  });
}

/**
 * Runs an admin's action, says how it went, and shows the agents again. A stop is answered once it
 * is under way (204): the agent leaves the list when its node has stopped it, which for an agent on
 * another node can come after the first reload, so the list is read again until `leaving` is gone
 * (for at most 5 s).
 */
async function act(done, action, leaving = null) {
  let refused = false;
  try {
    await action();
    say(done);
  } catch (e) {
    refused = true;
    say(`Refused: ${e.message}`);
  }
  await showAgents(agentsView.page).catch((e) => say(e.message));
  const listed = () => [...$('agents').querySelectorAll('tbody tr')].some((row) => row.dataset.key === leaving);
  for (let tries = 0; leaving && !refused && tries < 20 && listed(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    await showAgents(agentsView.page).catch((e) => say(e.message));
  }
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

// ---- Sniffer: GET /api/sniffer streams copies of the chosen agents' and conversations' messages from every
// node (their recent ones first); drawn as a sequence diagram, an arrow per message, its fields on a click.

const SVG = 'http://www.w3.org/2000/svg';
const MAX_MESSAGES = 200;
const COLUMN = 170;
const ROW = 30;
const HEAD = 44;
const OUTSIDE = 'outside'; // the lifeline of messages with no sender (posted through the API)
const sniffer = { source: null, messages: [], seen: new Set(), lifelines: [], picked: null };

function svg(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
  if (text !== undefined) element.textContent = text;
  return element;
}

const shortTime = (at) => new Date(at).toLocaleTimeString([], { hour12: false }) + `.${String(at % 1000).padStart(3, '0')}`;

/** The lifeline of an agent (AID), or of whoever posted from outside the platform. */
function lifeline(aid, location) {
  let line = sniffer.lifelines.find((l) => l.aid === aid);
  if (!line) sniffer.lifelines.push(line = { aid, location });
  if (location) line.location = location;
  return sniffer.lifelines.indexOf(line);
}

function drawSniffer() {
  const diagram = $('sniffer-diagram');
  const x = (i) => COLUMN / 2 + i * COLUMN;
  const height = HEAD + sniffer.messages.length * ROW + 10;
  diagram.setAttribute('height', String(height));
  diagram.setAttribute('viewBox', `0 0 ${Math.max(1, sniffer.lifelines.length) * COLUMN} ${height}`);
  diagram.setAttribute('width', String(Math.max(1, sniffer.lifelines.length) * COLUMN));
  const parts = [];
  sniffer.lifelines.forEach((l, i) => {
    const head = svg('g', { class: 'head', 'data-aid': l.aid });
    head.append(svg('rect', { x: x(i) - COLUMN / 2 + 6, y: 2, width: COLUMN - 12, height: HEAD - 10, rx: 4 }),
      svg('text', { x: x(i), y: 17 }, l.aid.length > 24 ? `${l.aid.slice(0, 23)}…` : l.aid),
      svg('text', { x: x(i), y: 30, class: 'muted' }, l.location ?? (l.aid === OUTSIDE ? 'no sender' : 'not running')));
    parts.push(svg('line', { class: 'lifeline', x1: x(i), y1: HEAD - 8, x2: x(i), y2: height }), head);
  });
  sniffer.messages.forEach((m, row) => {
    const y = HEAD + row * ROW + 18;
    const from = x(m.from);
    const to = x(m.to);
    const g = svg('g', { class: `message${m.copy.recent ? ' recent' : ''}${sniffer.picked === m ? ' picked' : ''}`, tabindex: 0, role: 'button',
      'data-performative': m.copy.message.performative,
      'aria-label': `${m.copy.message.performative} from ${m.sender} to ${m.copy.receiver} at ${shortTime(m.copy.at)}${m.copy.recent ? ' (recent)' : ''}` });
    if (m.from === m.to) {
      g.append(svg('path', { d: `M ${from} ${y - 6} h 30 v 12 h -26`, 'marker-end': 'url(#arrow)' }));
    } else {
      g.append(svg('line', { x1: from, y1: y, x2: to + (to > from ? -4 : 4), y2: y, 'marker-end': 'url(#arrow)' }));
    }
    g.append(svg('text', { x: (from + to) / 2 + (m.from === m.to ? 40 : 0), y: y - 5 }, m.copy.message.performative));
    const pick = () => { sniffer.picked = m; showMessage(m); drawSniffer(); };
    g.addEventListener('click', pick);
    g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } });
    parts.push(g);
  });
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: 'currentColor' }));
  defs.append(marker);
  diagram.replaceChildren(defs, ...parts);
}

/** The FIPA fields of the picked message, and where it went. */
function showMessage(m) {
  const c = m.copy;
  const rows = [['Admitted', `${new Date(c.at).toISOString()} on ${c.node}${c.recent ? ' (before watching began)' : ''}`],
    ['Receiver', `${c.receiver}${c.receiverLocation ? ` on ${c.receiverLocation}` : ''}`],
    ...Object.entries(c.message).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])];
  if (c.missed) rows.push(['Missed before it', `${c.missed} copies over the sniffer's rate bound`]);
  const list = $('sniffer-details').querySelector('dl');
  list.replaceChildren(...rows.flatMap(([k, v]) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    return [dt, dd];
  }));
  $('sniffer-details').hidden = false;
}

function sniffed(copy) {
  // A copy can come twice around the start of a watch (recent on one side, live on the other).
  const key = `${copy.node}|${copy.at}|${copy.receiver}|${JSON.stringify(copy.message)}`;
  if (sniffer.seen.has(key)) return;
  sniffer.seen.add(key);
  const sender = copy.message.sender ?? OUTSIDE;
  const m = { key, copy, sender, from: lifeline(sender, copy.senderLocation), to: lifeline(copy.receiver, copy.receiverLocation) };
  sniffer.messages.push(m);
  sniffer.messages.sort((a, b) => a.copy.at - b.copy.at); // nodes' copies arrive in any order
  while (sniffer.messages.length > MAX_MESSAGES) sniffer.seen.delete(sniffer.messages.shift().key);
  drawSniffer();
}

function stopSniffing() {
  sniffer.source?.close();
  sniffer.source = null;
  $('sniffer-stop').disabled = true;
}

/** Watches `agents` and `conversations` (arrays), from a clean diagram. */
function sniff({ agents, conversations }, fromAgents) {
  stopSniffing();
  Object.assign(sniffer, { messages: [], seen: new Set(), lifelines: [], picked: null });
  $('sniffer-details').hidden = true;
  drawSniffer();
  const form = $('sniffer-form');
  form.agents.value = agents.join(', ');
  form.conversations.value = conversations.join(', ');
  const query = new URLSearchParams([...agents.map((a) => ['agent', a]), ...conversations.map((c) => ['conversation', c])]);
  const source = new EventSource(`${API}/sniffer?${query}`);
  sniffer.source = source;
  source.addEventListener('message', (e) => sniffed(JSON.parse(e.data)));
  source.onopen = () => say(`Watching the messages of ${[...agents, ...conversations.map((c) => `conversation ${c}`)].join(', ')}.`);
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      say('The sniffer was refused or closed (an admin may watch up to 32 agents and 32 conversations at once).');
      stopSniffing();
    }
  };
  $('sniffer-stop').disabled = false;
  if (fromAgents) $('sniffer-heading').scrollIntoView();
}

function setUpSniffer() {
  const list = (text) => (text ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  $('sniffer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const { agents, conversations } = fields(e.target);
    if (!agents && !conversations) {
      say('Name at least one agent or conversation to watch.');
      return;
    }
    sniff({ agents: list(agents), conversations: list(conversations) });
  });
  $('sniffer-stop').addEventListener('click', () => { stopSniffing(); say('Stopped watching.'); });
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
  if (me.roles.includes('siebog-admin')) setUpSniffer();
  setInterval(() => refresh(me), REFRESH_MS);
}

start();
