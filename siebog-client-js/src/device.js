// A device: this page (or program) joined to a Siebog cluster over one WebSocket, hosting agents
// in Web Workers. The protocol is docs/device-protocol.md; the frame logic is in session.js, this
// file adds the socket, the Workers, heartbeats, reconnecting and events for the page.
import { DeviceSession, RateMeter, SiebogError, deviceSocketUrl } from './session.js';
import { ComputeUnitSolver, MAX_COMPUTE_UNITS } from './compute-units.js';

const MAX_BACKOFF_MS = 30_000;
const LEAVE_TIMEOUT_MS = 5000;
/** The close code of a device the node refused (docs/device-protocol.md, "Admission"). */
const POLICY_VIOLATION = 1008;

/**
 * Delay before reconnect attempt `attempt` (0-based): doubling from 1 s up to 30 s, with jitter
 * so a restarted node is not hit by every device at the same instant.
 * @param {number} attempt
 * @param {number} [random] in [0, 1)
 */
export function backoffDelay(attempt, random = Math.random()) {
  const ceiling = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempt, 15));
  return Math.round(ceiling * (0.5 + random / 2));
}

/**
 * Events (all CustomEvents, data in `detail`):
 * - `state`      {state}: 'connecting' | 'measuring' (answering the node's challenge) | 'joined' | 'reconnecting' | 'left'
 * - `joined`     {device, platform, computeUnits, heartbeatMs}: after each (re)join; the units the node gave it
 * - `agents`     {agents: [{aid, agentClass, state, handled}]}: an agent started or ended
 * - `stats`      {messagesPerSecond, handled, sent, agents}: every second while joined
 * - `agenterror` {aid, phase, error}: an agent threw
 * - `error`      {status, error, aid?}: the server refused something nobody awaited (or an agent's save)
 * - `statesaved` {aid, version}: Cassandra acknowledged a save of a hosted agent's state
 * - `closed`     {code, reason, reconnecting}: the socket closed
 */
export class Device extends EventTarget {
  /**
   * Joins a Siebog cluster: connects, answers the node's compute-unit challenge, and resolves once
   * the server has welcomed this device. Rejects if that first attempt fails.
   * @param {import('../index').JoinOptions} [options]
   * @returns {Promise<Device>}
   */
  static async join(options = {}) {
    const device = new Device(options);
    await device.connect();
    return device;
  }

  /** @param {import('../index').JoinOptions} [options] */
  constructor({ url, label, computeUnits, token, reconnect = true, WebSocket: Socket, createAgentHost, solveChallenge } = {}) {
    super();
    if (computeUnits != null && !(computeUnits > 0 && computeUnits <= MAX_COMPUTE_UNITS)) {
      throw new RangeError(`computeUnits must be above 0 and at most ${MAX_COMPUTE_UNITS}, got ${computeUnits}`);
    }
    this.url = deviceSocketUrl(url, import.meta.url);
    this.label = label ?? null;
    /** A claimed figure (the host page's ?cu=): only a node that trusts claims takes it; others measure. */
    this.claimedComputeUnits = computeUnits ?? null;
    /** @type {number|null} the units the node gave this device at its last join */
    this.computeUnits = null;
    /** Shown in `join` when the node is private (`siebog.device.join-token`); never sent anywhere else. */
    this.token = token ?? null;
    this.reconnect = reconnect;
    this.Socket = Socket ?? globalThis.WebSocket;
    this.createAgentHost = createAgentHost ?? createWorkerHost;
    /** Answers the node's compute-unit challenge: in a Worker unless given (tests). */
    this.solveChallenge = solveChallenge ?? ((challenge) => ComputeUnitSolver.solve(challenge));
    /** @type {string|null} this device's id, e.g. d-3f9a1c2e; a new one after each reconnect */
    this.id = null;
    this.platform = null;
    this.state = 'connecting';
    /** @type {DeviceSession|null} */
    this.session = null;
    this.socket = null;
    this.attempt = 0;
    this.leaving = false;
    this.timers = { heartbeat: null, reconnect: null, stats: null };
    this.totals = { handled: 0, sent: 0 };
    this.rate = new RateMeter();
  }

  /** The agents this device hosts now. */
  get agents() {
    return this.session ? this.session.agentList() : [];
  }

  /**
   * Sends a message from the page (its `sender` null). Resolves once every receiver's node
   * admitted it; receivers on this device get it directly.
   * @param {import('../index').AclMessageInit} msg
   */
  send(msg) {
    return this.session ? this.session.sendMessage(msg) : Promise.reject(notConnected());
  }

  /**
   * Starts an agent of a class the node lets devices start (by default its client agent classes;
   * 403 for others), like POST /api/agents.
   * @param {string} agentClass
   * @param {string} name
   * @param {Record<string, string>} [args]
   */
  spawn(agentClass, name, args) {
    return this.session ? this.session.spawn(agentClass, name, args) : Promise.reject(notConnected());
  }

  /**
   * Stops an agent hosted on this device; resolves once the server has stopped it.
   * @param {string} aid
   */
  stopAgent(aid) {
    return this.session ? this.session.stopAgent(aid) : Promise.reject(notConnected());
  }

  /**
   * Moves an agent this device hosts to another device through its saved state (`device`: a
   * joined device's id; omitted, one the node picks); resolves with where it goes once the move is
   * under way (this device then ends it, without its onStop, and that one starts it).
   */
  moveAgent(aid, device = null) {
    return this.session ? this.session.moveAgent(aid, device) : Promise.reject(notConnected());
  }

  /**
   * Leaves the cluster: the server restarts this device's agents elsewhere and closes the socket.
   * Resolves once it is closed.
   */
  leave() {
    this.leaving = true;
    this.attempt = 0;
    clearTimeout(this.timers.reconnect);
    const socket = this.socket;
    if (!socket || !this.session) {
      clearInterval(this.timers.stats);
      this.timers.stats = null;
      this.setState('left');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer = null;
      this.addEventListener('closed', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
      if (this.session.deviceId === null) {
        socket.close(1000, 'leaving before joining'); // not joined yet: nothing to hand over
        return;
      }
      try {
        this.session.leave();
      } catch {
        // fall through to the timeout below
      }
      // Normally the server closes with 1000; if it does not, close from here.
      timer = setTimeout(() => { if (this.socket === socket) socket.close(1000, 'leaving'); }, LEAVE_TIMEOUT_MS);
    });
  }

  /** Opens the socket and joins (answering the node's challenge). Used again when reconnecting. */
  async connect() {
    this.leaving = false;
    if (!this.Socket) throw new Error('no WebSocket here; pass {WebSocket} to Device.join');
    this.setState(this.attempt > 0 ? 'reconnecting' : 'connecting');
    const socket = new this.Socket(this.url);
    const httpBase = this.url.replace(/^ws/, 'http');
    const session = new DeviceSession({
      send: (text) => {
        socket.send(text);
        this.lastSentAt = Date.now();
      },
      createAgentHost: this.createAgentHost,
      resolveModule: (path) => new URL(path, httpBase).href,
      emit: (type, detail) => this.emit(type, detail),
      solveChallenge: (challenge) => {
        this.setState('measuring');
        return this.solveChallenge(challenge);
      },
    });
    this.socket = socket;
    this.session = session;
    socket.onopen = () => session.join(this.claimedComputeUnits, this.label, this.token);
    socket.onmessage = (event) => this.onFrame(session, event.data);
    socket.onclose = (event) => this.onClose(socket, event.code, event.reason);

    let welcome;
    try {
      welcome = await session.welcome;
    } catch (e) {
      if (this.socket === socket) socket.close(1000, 'join refused');
      throw e;
    }
    this.id = welcome.device;
    this.platform = welcome.platform ?? null;
    this.computeUnits = welcome.computeUnits ?? this.claimedComputeUnits;
    this.attempt = 0;
    this.startHeartbeats(socket, session, welcome.heartbeatMs);
    this.startStats();
    this.setState('joined');
    this.emit('joined', { device: this.id, platform: this.platform, computeUnits: this.computeUnits, heartbeatMs: welcome.heartbeatMs });
    return this;
  }

  onFrame(session, data) {
    this.lastFrameAt = Date.now();
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      frame = null;
    }
    if (frame === null || typeof frame !== 'object' || typeof frame.op !== 'string') {
      this.emit('error', { status: 400, error: 'the server sent a frame that is not a JSON object with an op' });
      return;
    }
    session.receive(frame);
  }

  startHeartbeats(socket, session, heartbeatMs) {
    clearInterval(this.timers.heartbeat);
    const interval = heartbeatMs > 0 ? heartbeatMs : 10_000;
    this.lastFrameAt = Date.now();
    this.timers.heartbeat = setInterval(() => {
      const now = Date.now();
      // The server answers every heartbeat; silence for 3 intervals means it (or the path) is gone,
      // which a half-open TCP connection would never tell us by itself.
      if (now - this.lastFrameAt > 3 * interval) {
        this.drop(socket, 4008, 'no frame from the server for 3 heartbeat intervals');
        return;
      }
      // A busy device proves itself both ways with its own traffic: with 16,000 devices on a node,
      // heartbeats would otherwise be half of all frames. Either side then hears something at least
      // every 2 intervals, inside the 3 that close a socket.
      if (now - this.lastSentAt < interval && now - this.lastFrameAt < interval) return;
      try {
        session.heartbeat();
      } catch {
        // the socket is closing; onclose follows
      }
    }, interval);
  }

  startStats() {
    if (this.timers.stats) return;
    this.timers.stats = setInterval(() => {
      const handled = this.totals.handled + (this.session?.handledTotal ?? 0);
      const sent = this.totals.sent + (this.session?.sentTotal ?? 0);
      const messagesPerSecond = this.rate.sample(handled, Date.now());
      this.emit('stats', { messagesPerSecond, handled, sent, agents: this.agents });
    }, 1000);
  }

  /** Gives up on a socket at once (without waiting for a close handshake a dead peer never sends). */
  drop(socket, code, reason) {
    socket.onclose = null;
    try {
      socket.close(4000, reason);
    } catch {
      // already closing
    }
    this.onClose(socket, code, reason);
  }

  onClose(socket, code, reason) {
    if (socket !== this.socket) return;
    clearInterval(this.timers.heartbeat);
    const session = this.session;
    this.totals.handled += session.handledTotal;
    this.totals.sent += session.sentTotal;
    // Our agents are being restarted elsewhere by the server: end their Workers now.
    session.close(reason || `the connection closed (${code})`);
    this.socket = null;
    this.session = null;
    this.id = null;
    const wasJoined = session.deviceId !== null;
    // 1008: the node refused this device (its join token, or it broke a limit and was told so):
    // joining again would only be refused again. 1013 (it read too slowly) and the rest may pass.
    const refused = code === POLICY_VIOLATION;
    const reconnecting = this.reconnect && !this.leaving && !refused && (wasJoined || this.attempt > 0);
    this.emit('closed', { code, reason, reconnecting });
    if (reconnecting) {
      this.scheduleReconnect();
    } else {
      clearInterval(this.timers.stats);
      this.timers.stats = null;
      this.setState('left');
    }
  }

  scheduleReconnect() {
    this.setState('reconnecting');
    const delay = backoffDelay(this.attempt++);
    this.timers.reconnect = setTimeout(() => {
      this.connect().catch(() => {
        // onClose already scheduled the next attempt
      });
    }, delay);
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', { state });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

function notConnected() {
  return new SiebogError(503, 'the device is not connected');
}

/** One module Worker per agent, running worker.js. */
function createWorkerHost(aid, onMessage) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: aid });
  worker.onmessage = (event) => onMessage(event.data);
  // Only worker.js itself failing to load gets here; the agent's own errors are caught inside.
  worker.onerror = (event) => {
    event.preventDefault();
    onMessage({ type: 'agentError', phase: 'start', error: `the agent's Worker failed: ${event.message ?? 'could not load worker.js'}` });
  };
  return {
    post: (command) => worker.postMessage(command),
    terminate: () => worker.terminate(),
  };
}
