// One device session: everything between a `join` and the socket closing, as plain logic with its
// transport, Workers and timers handed in, so Node's test runner can drive it with fakes. The
// browser glue (WebSocket, Worker, heartbeats, reconnecting) is in device.js.
import { validateMessage } from './acl.js';
import { solveChallenge } from './compute-units.js';

/** The protocol's default bound on a frame, until `welcome` says otherwise. */
export const DEFAULT_MAX_FRAME_BYTES = 256 * 1024;
/** How long an agent's onStop may take before its Worker is ended anyway. */
export const STOP_TIMEOUT_MS = 5000;
/** The protocol's defaults for agent state, until `welcome` says otherwise. */
export const DEFAULT_MAX_STATE_BYTES = 64 * 1024;
export const DEFAULT_MAX_PENDING_STATE = 256;

/**
 * A request the server (or the library, before sending) refused; `status` is an HTTP status.
 * State errors (409, 503) also carry the `version` the server reported.
 */
export class SiebogError extends Error {
  /** @param {number} status @param {string} message @param {number|null} [version] */
  constructor(status, message, version = null) {
    super(message);
    this.name = 'SiebogError';
    this.status = status;
    if (version !== null && version !== undefined) this.version = version;
  }
}

/** Bytes of `text` in UTF-8. */
export function utf8Length(text) {
  // Cheap when it is plain ASCII (the usual JSON); exact otherwise.
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : new TextEncoder().encode(text).length;
}

/**
 * Splits a message's receivers into those hosted here and the rest.
 * @param {string[]} receivers canonical AIDs
 * @param {(aid: string) => boolean} isLocal
 * @returns {{local: string[], remote: string[]}}
 */
export function splitReceivers(receivers, isLocal) {
  const local = [];
  const remote = [];
  for (const aid of new Set(receivers)) (isLocal(aid) ? local : remote).push(aid);
  return { local, remote };
}

/**
 * Per-agent delivery bookkeeping: drops repeated `seq`s and coalesces acks, so one `ack` covers
 * every delivery handled since the last flush.
 */
export class AckTracker {
  constructor() {
    /** @type {Map<string, number>} highest seq received per agent */
    this.received = new Map();
    /** @type {Map<string, number>} highest seq handled and not yet acknowledged */
    this.pending = new Map();
  }

  /** Whether a delivery is new (true) or a repeat of one already received (false). */
  accept(aid, seq) {
    const last = this.received.get(aid);
    if (last !== undefined && seq <= last) return false;
    this.received.set(aid, seq);
    return true;
  }

  /** The agent finished handling delivery `seq` (deliveries finish in order). */
  handled(aid, seq) {
    if (seq > (this.pending.get(aid) ?? 0)) this.pending.set(aid, seq);
  }

  /** @returns {{aid: string, seq: number}[]} acks to send now; clears them */
  drain() {
    const acks = [...this.pending].map(([aid, seq]) => ({ aid, seq }));
    this.pending.clear();
    return acks;
  }

  forget(aid) {
    this.received.delete(aid);
    this.pending.delete(aid);
  }
}

/**
 * Messages per second from a running total, over a sliding window of recent samples.
 */
export class RateMeter {
  /** @param {number} windowMs */
  constructor(windowMs = 3000) {
    this.windowMs = windowMs;
    /** @type {{t: number, total: number}[]} */
    this.samples = [];
  }

  /** Records the total at time `t` (ms) and returns the rate over the window. */
  sample(total, t) {
    this.samples.push({ t, total });
    while (this.samples.length > 2 && t - this.samples[1].t >= this.windowMs) this.samples.shift();
    const first = this.samples[0];
    const dt = t - first.t;
    return dt > 0 ? ((total - first.total) * 1000) / dt : 0;
  }
}

/**
 * @typedef {{post(command: object): void, terminate(): void}} AgentHost
 * @typedef {{
 *   send(text: string): void,
 *   createAgentHost(aid: string, onMessage: (data: object) => void): AgentHost,
 *   resolveModule(path: string): string,
 *   emit(type: string, detail: object): void,
 *   solveChallenge?: (challenge: {seed: string, puzzles: number, zeroBits: number}) => Promise<number[]>,
 *   setTimeout?: (fn: () => void, ms: number) => any,
 *   clearTimeout?: (handle: any) => void,
 * }} SessionEnv
 * @typedef {{aid: string, agentClass: string, module: string, state: 'starting'|'running'|'stopping',
 *   handled: number, host: AgentHost, stopTimer: any, version: number, saving: boolean,
 *   nextSave: {json: string, ids: number[]}|null, queued: boolean, moved: boolean}} HostedAgent
 *
 * Agent state: `version` is the agent's state version as this device knows it (from `start`, then
 * each `stateSaved`, or the `version` of a 503). `saving` is true while its one `saveState` is on
 * the wire; saves it makes meanwhile wait in `nextSave` (the newest JSON, and the ids of every
 * waiting promise), and `queued` while it waits in `stateQueue` for one of the device's
 * `maxPendingState` slots.
 */

export class DeviceSession {
  /** @param {SessionEnv} env */
  constructor(env) {
    this.env = env;
    this.setTimeout = env.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimeout = env.clearTimeout ?? ((h) => clearTimeout(h));
    /** Answers the node's compute-unit challenge (a Worker in a browser); on this thread when not given. */
    this.solveChallenge = env.solveChallenge ?? ((challenge) => Promise.resolve().then(() => solveChallenge(challenge)));
    /** @type {string|null} */
    this.deviceId = null;
    this.platform = null;
    this.heartbeatMs = null;
    this.maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    this.maxStateBytes = DEFAULT_MAX_STATE_BYTES;
    this.maxPendingState = DEFAULT_MAX_PENDING_STATE;
    /** State requests of this device on the wire (at most maxPendingState). */
    this.statePending = 0;
    /** @type {HostedAgent[]} agents whose next save waits for a free slot, first come first served */
    this.stateQueue = [];
    /** @type {Map<string, HostedAgent>} */
    this.agents = new Map();
    this.acks = new AckTracker();
    this.ackFlushScheduled = false;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.requests = new Map();
    this.nextRef = 1;
    this.handledTotal = 0;
    this.sentTotal = 0;
    this.closed = false;
    this.welcome = new Promise((resolve, reject) => {
      this.resolveWelcome = resolve;
      this.rejectWelcome = reject;
    });
    this.welcome.catch(() => {}); // the caller of join() sees it; a later close must not be "unhandled"
  }

  // ---- device → server ----------------------------------------------------------------------

  /**
   * Sends `join` (with the node's join token when it needs one, and a claimed figure only when
   * given: a node measures the device unless it trusts claims); resolves with the `welcome` frame,
   * after answering the node's `challenge` if it sends one.
   */
  join(computeUnits, label, token) {
    this.write({
      op: 'join',
      ...(computeUnits != null ? { computeUnits } : {}),
      ...(label ? { label: String(label).slice(0, 100) } : {}),
      ...(token ? { token: String(token) } : {}),
    });
    return this.welcome;
  }

  /** The node measures this device: answers its challenge (the node times the answer). */
  answerChallenge(challenge) {
    this.solveChallenge(challenge).then(
      (nonces) => { if (!this.closed) this.write({ op: 'solution', nonces }); },
      (e) => this.rejectWelcome(new SiebogError(500, `the compute-unit challenge was not answered: ${e.message}`)),
    );
  }

  heartbeat() {
    this.write({ op: 'heartbeat' });
  }

  /** Acks are sent before leaving so handled messages are not delivered again elsewhere. */
  leave() {
    this.flushAcks();
    this.write({ op: 'leave' });
  }

  /**
   * A message from the page: `sender` null (or an agent this device hosts).
   * @returns {Promise<void>}
   */
  sendMessage(msg) {
    let message;
    try {
      message = validateMessage(msg);
    } catch (e) {
      return Promise.reject(e);
    }
    if (message.sender && !this.agents.has(message.sender)) {
      return Promise.reject(new SiebogError(403, `sender must be null or an agent hosted by this device, got '${message.sender}'`));
    }
    return this.route(message);
  }

  /**
   * Starts an agent of a class the node lets devices start (by default its client agent classes;
   * the server answers 403 for others), like POST /api/agents.
   * @returns {Promise<{aid: string, location: string}>}
   */
  spawn(agentClass, name, args = {}) {
    if (typeof agentClass !== 'string' || !agentClass) return Promise.reject(new SiebogError(400, 'agentClass must be a class name (a non-empty string)'));
    if (typeof name !== 'string' || !name) return Promise.reject(new SiebogError(400, 'name must be a non-empty string'));
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return Promise.reject(new SiebogError(400, 'args must be an object of strings'));
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string') return Promise.reject(new SiebogError(400, `args.${key} must be a string, got ${typeof value}`));
    }
    return this.request('spawn', { agentClass, name, args }).then(({ aid, location }) => ({ aid, location }));
  }

  /**
   * Stops an agent this device hosts (the server answers 403 for any other).
   * @returns {Promise<void>}
   */
  stopAgent(aid) {
    if (typeof aid !== 'string' || !aid) return Promise.reject(new SiebogError(400, 'aid must be a non-empty string'));
    return this.request('stopAgent', { aid }).then(() => undefined);
  }

  /**
   * Moves an agent this device hosts to another device through its saved state (`device`: a joined
   * device's id, or null for one the node picks); resolves with where it goes once the move is under
   * way. The node then has this device end it, without its onStop, and starts it there.
   * @returns {Promise<{aid: string, location: string}>}
   */
  moveAgent(aid, device = null) {
    if (typeof aid !== 'string' || !aid) return Promise.reject(new SiebogError(400, 'aid must be a non-empty string'));
    if (device !== null && (typeof device !== 'string' || !device)) return Promise.reject(new SiebogError(400, 'device must be a device id (a non-empty string) or null'));
    return this.request('move', device === null ? { aid } : { aid, device }).then(({ aid: moved, location }) => ({ aid: moved, location }));
  }

  /** Sends the acks gathered since the last flush, one per agent. */
  flushAcks() {
    this.ackFlushScheduled = false;
    if (this.closed) return;
    for (const { aid, seq } of this.acks.drain()) this.write({ op: 'ack', aid, seq });
  }

  // ---- server → device ----------------------------------------------------------------------

  /** Handles one frame from the server (already parsed). */
  receive(frame) {
    if (this.closed) return;
    switch (frame.op) {
      case 'welcome':
        this.deviceId = frame.device;
        this.platform = frame.platform ?? null;
        this.heartbeatMs = frame.heartbeatMs;
        if (frame.maxFrameBytes > 0) this.maxFrameBytes = frame.maxFrameBytes;
        if (frame.maxStateBytes > 0) this.maxStateBytes = frame.maxStateBytes;
        if (frame.maxPendingState > 0) this.maxPendingState = frame.maxPendingState;
        this.resolveWelcome(frame);
        break;
      case 'challenge':
        if (this.deviceId === null) this.answerChallenge(frame);
        break;
      case 'heartbeat':
        break;
      case 'start':
        this.start(frame);
        break;
      case 'stop':
        this.stop(frame.aid, frame.moved === true);
        break;
      case 'deliver':
        this.deliver(frame);
        break;
      case 'sent':
      case 'spawned':
      case 'agentStopped':
      case 'moved':
      case 'stateSaved':
        this.settle(frame.ref, null, frame);
        break;
      case 'error': {
        const error = new SiebogError(frame.status ?? 500, frame.error ?? 'unknown error', frame.version);
        if (frame.ref != null && this.requests.has(frame.ref)) this.settle(frame.ref, error);
        else if (this.deviceId === null) this.rejectWelcome(error); // the join itself was refused
        else this.env.emit('error', { status: error.status, error: error.message });
        break;
      }
      default:
        // Unknown ops from a newer server are ignored, as unknown fields are.
        break;
    }
  }

  start({ aid, agentClass, module, args, state, version }) {
    if (typeof aid !== 'string' || typeof module !== 'string') {
      this.env.emit('error', { status: 400, error: `the server sent a start without aid or module: ${JSON.stringify({ aid, module })}` });
      return;
    }
    const existing = this.agents.get(aid);
    if (existing) {
      if (existing.state === 'running') this.write({ op: 'started', aid });
      return;
    }
    const host = this.env.createAgentHost(aid, (data) => this.fromAgent(aid, data));
    /** @type {HostedAgent} */
    const agent = {
      aid, agentClass: agentClass ?? module, module, state: 'starting', handled: 0, host, stopTimer: null,
      version: Number.isInteger(version) ? version : 0, saving: false, nextSave: null, queued: false, moved: false,
    };
    this.agents.set(aid, agent);
    host.post({ type: 'start', module: this.env.resolveModule(module), aid, args: args ?? {}, state: state ?? null, version: agent.version });
    this.agentsChanged();
  }

  /** Ends an agent at the server's word: stopped (its onStop runs), or `moved` to another device (it does not). */
  stop(aid, moved = false) {
    const agent = this.agents.get(aid);
    if (!agent) {
      // Not here (already ended, or its onStart failed): nothing to stop, and a `stopped` for an
      // agent this device does not host would only earn a 403.
      return;
    }
    if (agent.state === 'stopping') return;
    agent.state = 'stopping';
    agent.moved = moved;
    agent.host.post(moved ? { type: 'stop', moved: true } : { type: 'stop' });
    // An onStop that never returns must not keep the agent, nor the server waiting, forever.
    agent.stopTimer = this.setTimeout(() => this.ended(aid), STOP_TIMEOUT_MS);
    this.agentsChanged();
  }

  deliver({ aid, seq, message }) {
    const agent = this.agents.get(aid);
    if (!agent || agent.state === 'stopping') {
      // Not acknowledged, so the server still holds it for the agent's next host.
      this.env.emit('error', { status: 404, error: `a delivery for ${aid}, which is not running on this device` });
      return;
    }
    if (!this.acks.accept(aid, seq)) {
      // A repeat of a delivery already received: acknowledge again once handled, never re-handle.
      this.acks.handled(aid, seq);
      this.scheduleAckFlush();
      return;
    }
    agent.host.post({ type: 'deliver', message, seq });
  }

  // ---- worker → device ----------------------------------------------------------------------

  /** Handles one report from an agent's Worker. */
  fromAgent(aid, data) {
    const agent = this.agents.get(aid);
    if (!agent || this.closed) return;
    switch (data.type) {
      case 'started':
        if (agent.state === 'starting') agent.state = 'running';
        this.write({ op: 'started', aid });
        this.agentsChanged();
        break;
      case 'handled':
        agent.handled++;
        this.handledTotal++;
        if (data.seq != null) {
          this.acks.handled(aid, data.seq);
          this.scheduleAckFlush();
        }
        break;
      case 'agentError':
        this.write({ op: 'agentError', aid, phase: data.phase, error: String(data.error) });
        this.env.emit('agenterror', { aid, phase: data.phase, error: String(data.error) });
        if (data.phase === 'start') this.remove(agent); // the agent is over; the server unregisters it
        break;
      case 'send':
        this.sendFromAgent(agent, data.id, data.message);
        break;
      case 'saveState':
        this.saveState(agent, data.id, data.json);
        break;
      case 'move':
        this.moveAgent(aid, data.device ?? null).then(
          ({ location }) => agent.host.post({ type: 'moveResult', id: data.id, location, error: null }),
          (e) => agent.host.post({ type: 'moveResult', id: data.id, error: { status: e.status ?? 500, message: e.message } }),
        );
        break;
      case 'stopped':
        this.ended(aid);
        break;
      default:
        break;
    }
  }

  sendFromAgent(agent, id, msg) {
    let promise;
    try {
      // The worker already checked it; the sender is set here too, so no agent speaks for another.
      promise = this.route(validateMessage({ ...msg, sender: agent.aid }));
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      () => agent.host.post({ type: 'sendResult', id, error: null }),
      (e) => {
        this.env.emit('error', { aid: agent.aid, status: e.status ?? 400, error: e.message });
        agent.host.post({ type: 'sendResult', id, error: e.message });
      },
    );
  }

  // ---- agent state ---------------------------------------------------------------------------

  /**
   * An agent's `saveState`: `json` is its state as JSON text. At most one `saveState` per agent
   * is on the wire; saves made meanwhile wait, and only the newest waiting one is written, when
   * the one on the wire is answered and a device slot is free. Every waiting save is answered
   * with the outcome of that write (a newer state acknowledged covers the older ones).
   */
  saveState(agent, id, json) {
    // Refused here, before the server would: nothing is sent, nothing changes.
    const refuse = (error) => {
      this.env.emit('error', { aid: agent.aid, status: error.status, error: error.message });
      this.answerSave(agent, [id], error);
    };
    if (typeof json !== 'string') {
      refuse(new SiebogError(400, 'the state must be JSON text'));
      return;
    }
    const bytes = utf8Length(json);
    if (bytes > this.maxStateBytes) {
      refuse(new SiebogError(413, `the state of ${agent.aid} is ${bytes} bytes of JSON; at most ${this.maxStateBytes} are kept`));
      return;
    }
    if (agent.nextSave) {
      agent.nextSave.json = json;
      agent.nextSave.ids.push(id);
    } else {
      agent.nextSave = { json, ids: [id] };
    }
    if (!agent.saving && !agent.queued) {
      agent.queued = true;
      this.stateQueue.push(agent);
    }
    this.pumpState();
  }

  /** Sends waiting saves, in order, while the device has fewer than maxPendingState on the wire. */
  pumpState() {
    while (!this.closed && this.statePending < this.maxPendingState && this.stateQueue.length > 0) {
      const agent = this.stateQueue.shift();
      agent.queued = false;
      if (agent.nextSave) this.writeSave(agent);
    }
  }

  writeSave(agent) {
    const { json, ids } = agent.nextSave;
    agent.nextSave = null;
    agent.saving = true;
    this.statePending++;
    const ref = this.nextRef++;
    // Settled synchronously from receive(), so the next save goes out in the same turn.
    this.requests.set(ref, {
      resolve: (frame) => this.saveDone(agent, ids, null, frame),
      reject: (error) => this.saveDone(agent, ids, error),
    });
    try {
      this.write({ op: 'saveState', aid: agent.aid, version: agent.version, state: JSON.parse(json), ref });
    } catch (e) {
      this.requests.delete(ref);
      this.saveDone(agent, ids, e);
    }
  }

  saveDone(agent, ids, error, frame) {
    this.statePending--;
    agent.saving = false;
    if (error) {
      // 503: the failed save may have used a version up; the server says which is current now.
      // 409: another device saved this agent's state (it was started again elsewhere): this copy
      // is stale. Its version is kept, so every later save of it is refused too.
      if (error.status === 503 && Number.isInteger(error.version)) agent.version = error.version;
      if (!this.closed) this.env.emit('error', { aid: agent.aid, status: error.status ?? 500, error: error.message });
    } else {
      agent.version = Number.isInteger(frame.version) ? frame.version : agent.version + 1;
      this.env.emit('statesaved', { aid: agent.aid, version: agent.version });
    }
    this.answerSave(agent, ids, error);
    if (agent.nextSave && !this.closed && this.agents.get(agent.aid) === agent) {
      agent.queued = true;
      this.stateQueue.push(agent);
    }
    this.pumpState();
  }

  /** Settles the agent's waiting `saveState` promises: `version` is the agent's version now. */
  answerSave(agent, ids, error) {
    const failure = error ? { status: error.status ?? 500, message: error.message, version: error.version ?? null } : null;
    for (const id of ids) agent.host.post({ type: 'saveResult', id, version: agent.version, error: failure });
  }

  /**
   * Delivers to receivers on this device directly and sends the message once to the server for
   * all the others.
   * @returns {Promise<void>}
   */
  route(message) {
    const { local, remote } = splitReceivers(message.receivers, (aid) => {
      const agent = this.agents.get(aid);
      return agent !== undefined && agent.state !== 'stopping';
    });
    this.sentTotal++;
    for (const aid of local) this.agents.get(aid).host.post({ type: 'deliver', message, seq: null });
    if (local.length > 0 && remote.length === 0) return Promise.resolve();
    // With nothing local, the message goes as it is, so the server judges it whole (e.g. no receivers).
    const toServer = local.length === 0 ? message : { ...message, receivers: remote };
    return this.request('send', { message: toServer }).then(() => undefined);
  }

  // ---- internals ----------------------------------------------------------------------------

  request(op, fields) {
    if (this.closed) return Promise.reject(new SiebogError(503, 'the device is not connected'));
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.requests.set(ref, { resolve, reject });
      try {
        this.write({ op, ...fields, ref });
      } catch (e) {
        this.requests.delete(ref);
        reject(e);
      }
    });
  }

  settle(ref, error, value) {
    const request = this.requests.get(ref);
    if (!request) return;
    this.requests.delete(ref);
    if (error) request.reject(error); else request.resolve(value);
  }

  /** Serialises and sends a frame; a frame over the limit is refused here, before the server closes on it. */
  write(frame) {
    if (this.closed) return;
    const text = JSON.stringify(frame);
    // Cheap upper bound first: no UTF-16 unit takes more than 3 bytes in UTF-8.
    if (text.length * 3 > this.maxFrameBytes) {
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > this.maxFrameBytes) {
        throw new SiebogError(413, `the ${frame.op} frame is ${bytes} bytes; a frame is at most ${this.maxFrameBytes}`);
      }
    }
    this.env.send(text);
  }

  scheduleAckFlush() {
    if (this.ackFlushScheduled) return;
    this.ackFlushScheduled = true;
    // A short pause lets a burst of handled deliveries share one ack per agent.
    this.setTimeout(() => this.flushAcks(), 10);
  }

  ended(aid) {
    const agent = this.agents.get(aid);
    if (!agent) return;
    // One that moves: its acknowledgements first, so its next device does not get what it handled here.
    if (agent.moved) this.flushAcks();
    this.remove(agent);
    this.write({ op: 'stopped', aid });
  }

  remove(agent) {
    if (agent.stopTimer !== null) this.clearTimeout(agent.stopTimer);
    // An agent that failed to start may have pending acks that matter; one the server stopped is
    // gone from the server already, and acks for it would only be refused.
    if (agent.state !== 'stopping') this.flushAcks();
    agent.host.terminate();
    this.agents.delete(agent.aid);
    this.acks.forget(agent.aid);
    // Saves not sent yet go with the agent; one on the wire still holds its slot until answered.
    agent.nextSave = null;
    if (agent.queued) this.stateQueue = this.stateQueue.filter((a) => a !== agent);
    agent.queued = false;
    this.agentsChanged();
  }

  agentsChanged() {
    this.env.emit('agents', { agents: this.agentList() });
  }

  /** @returns {{aid: string, agentClass: string, state: string, handled: number}[]} */
  agentList() {
    return [...this.agents.values()].map(({ aid, agentClass, state, handled }) => ({ aid, agentClass, state, handled }));
  }

  /**
   * The socket is gone: every Worker ends (the server restarts these agents elsewhere) and every
   * open request fails.
   */
  close(reason = 'the connection closed') {
    if (this.closed) return;
    this.closed = true;
    for (const agent of this.agents.values()) {
      if (agent.stopTimer !== null) this.clearTimeout(agent.stopTimer);
      agent.host.terminate();
    }
    this.agents.clear();
    this.stateQueue = [];
    const error = new SiebogError(503, reason);
    for (const request of this.requests.values()) request.reject(error);
    this.requests.clear();
    this.rejectWelcome(error);
    this.env.emit('agents', { agents: [] });
  }
}

/**
 * The device WebSocket URL: `url` if given (ws:, wss:, or an http(s) base of the server), else the
 * host the library was loaded from.
 * @param {string|undefined} url
 * @param {string} moduleUrl import.meta.url of the library
 */
export function deviceSocketUrl(url, moduleUrl) {
  const base = new URL(url ?? moduleUrl);
  if (base.protocol === 'ws:' || base.protocol === 'wss:') {
    if (url) return base.href;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(base.protocol)) {
    throw new Error(`cannot derive the Siebog server from ${base.href}; pass {url: 'ws://host:port/siebog/ws/device'}`);
  }
  const target = new URL('/siebog/ws/device', base);
  target.protocol = base.protocol === 'https:' || base.protocol === 'wss:' ? 'wss:' : 'ws:';
  return target.href;
}
