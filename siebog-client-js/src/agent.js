// The base class of client agents. An agent module lives at /siebog/agents/<ClassName>.js,
// imports this file and default-exports a subclass; the device runs it in its own Worker
// (worker.js), one call at a time.
import { freshId, validateMessage } from './acl.js';
import { DirectoryFacilitator } from './df.js';
import { Protocols } from './protocols.js';
import { Topics } from './topics.js';
import { TupleSpace } from './tuples.js';
import { SiebogError } from './session.js';

// Symbol.for, not Symbol(): an agent module may reach this file by another URL than worker.js
// does (a different module instance), and the brand and runtime must still match.
const RUNTIME = Symbol.for('siebog.agent.runtime');
const BRAND = Symbol.for('siebog.agent');
/** The longest an ask waits: the server's siebog.message.max-await-reply-ms default, 5 minutes. */
const MAX_ASK_TIMEOUT_MS = 300_000;

/**
 * @typedef {import('../index').AclMessage} AclMessage
 * @typedef {{aid: string, send(message: object): Promise<void>, ask(message: object, timeoutMs: number): Promise<AclMessage>,
 *   askAll(message: object, timeoutMs: number): Promise<AclMessage[]>,
 *   saveState(json: string): Promise<{version: number}>, moveTo(device: string|null): Promise<void>,
 *   stateVersion(): number}} AgentRuntime
 */

export class Agent {
  /** True on every Agent subclass, whatever copy of this module it extends. */
  static get [BRAND]() {
    return true;
  }

  /**
   * This agent's AID (`name@platform`); set before `onStart` runs, so not yet in the constructor.
   * @returns {string}
   */
  get aid() {
    return this[RUNTIME]?.aid ?? null;
  }

  /**
   * The version of this agent's saved state as this device knows it: the one it started with
   * (0 when nothing was ever saved), then that of each save. Set before `onStart` runs.
   * @returns {number}
   */
  get stateVersion() {
    return this[RUNTIME]?.stateVersion() ?? 0;
  }

  /**
   * Called once before any message, with the start arguments (an object of strings) and the
   * agent's last saved state (null when none was saved): after a device left, the agent starts
   * again elsewhere from there. Throwing here ends the agent (reported as `agentError` phase `start`).
   * @param {Record<string, string>} args
   * @param {any} state
   */
  onStart(args, state) {} // eslint-disable-line no-unused-vars

  /**
   * Called for each message, one at a time, in order. Every field is present; absent ones are null.
   * Throwing here is reported (phase `message`) and the agent goes on with the next message.
   * @param {AclMessage} msg
   */
  onMessage(msg) {} // eslint-disable-line no-unused-vars

  /** Called once when the agent is stopped, before its Worker ends. */
  onStop() {}

  /**
   * Sends a message as this agent (`sender` is filled with this agent's AID). The message is
   * checked at once: a malformed one throws an AclError naming the field. The promise resolves
   * once every receiver's node admitted it, or rejects (unknown receiver, full mailbox, …); a
   * rejection nobody awaits is still reported to the page, never lost.
   * @param {Partial<AclMessage> & {performative: string}} msg
   * @returns {Promise<void>}
   */
  send(msg) {
    const runtime = this[RUNTIME];
    if (!runtime) throw new Error('this agent is not running yet: send from onStart, onMessage or onStop');
    const message = validateMessage({ ...msg, sender: runtime.aid });
    return runtime.send(message);
  }

  /**
   * Sends a question and resolves with its answer: the first message to this agent whose
   * `inReplyTo` is the question's `replyWith` (set to a fresh id unless given; `replyTo` is this
   * agent, so answers come back here). The answer settles the promise and does not reach
   * `onMessage`; a second answer to the same question does. An `await this.ask(...)` inside
   * `onMessage` holds this agent's later messages until the answer (one call at a time), but not
   * the answer itself.
   *
   * Rejects with a SiebogError: 504 when no answer came within `timeoutMs` (default 30,000, at
   * most 300,000), the send's refusal (404 unknown receiver, 503 full…), 400 for a bad timeout or
   * a `replyWith` already awaiting its answer, 503 beyond 1,000 open questions. A malformed
   * message throws an AclError at once, as in `send`. Open questions are this worker's: when the
   * agent stops or starts again on another device, they are dropped.
   * @param {Partial<AclMessage> & {performative: string}} msg
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<AclMessage>}
   */
  ask(msg, { timeoutMs = 30_000 } = {}) {
    return this.#question(msg, timeoutMs, (runtime, message) => runtime.ask(message, timeoutMs));
  }

  /**
   * Asks every receiver and gathers their answers: resolves when each has given a final answer
   * (any but AGREE, which promises one) or after `timeoutMs` with the answers that came by then,
   * in arrival order. Each receiver gets the question on its own, all with one `replyWith`. A
   * receiver the question cannot reach counts as answering FAILURE (sender that receiver, content
   * `not delivered: <reason>`, userProperties `{"siebog-undelivered": "true"}`); a topic among the
   * receivers keeps the gathering open until the timeout. Answers after the timeout reach
   * `onMessage`, except a PROPOSE to a question of protocol `fipa-contract-net`, which is rejected
   * at once (REJECT_PROPOSAL, "too late"). Rejects only as `ask` does before sending (400, 503).
   * @param {Partial<AclMessage> & {performative: string}} msg
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<AclMessage[]>}
   */
  askAll(msg, { timeoutMs = 30_000 } = {}) {
    return this.#question(msg, timeoutMs, (runtime, message) => runtime.askAll(message, timeoutMs));
  }

  /** A question from this agent, checked (an AclError at once, a bad timeout a 400), handed to `asking`. */
  #question(msg, timeoutMs, asking) {
    const runtime = this[RUNTIME];
    if (!runtime) throw new Error('this agent is not running yet: ask from onStart, onMessage or onStop');
    const message = validateMessage({
      ...msg, sender: runtime.aid, replyTo: runtime.aid, replyWith: msg.replyWith ?? freshId('ask'),
    });
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_ASK_TIMEOUT_MS) {
      return Promise.reject(new SiebogError(400, `timeoutMs must be a whole number of milliseconds from 1 to ${MAX_ASK_TIMEOUT_MS}, got ${timeoutMs}`));
    }
    return asking(runtime, message);
  }

  /**
   * The interaction protocols, with this agent as initiator: `request` (FIPA Request),
   * `callForProposals` and `award` (Contract Net), `vote` (a ballot); see Protocols.
   * @returns {Protocols}
   */
  get protocols() {
    return new Protocols(this);
  }

  /**
   * The directory facilitator, acting for this agent: `register`, `modify`, `deregister` (this
   * agent's own services) and `search`, each a promise (rejected with a SiebogError whose
   * `status` says why: 400 bad service or template, 404 no such service, 504 df did not answer).
   * @returns {DirectoryFacilitator}
   */
  get df() {
    return new DirectoryFacilitator(this);
  }

  /**
   * Topics, for this agent: `subscribe(topic, {group})`, `unsubscribe`, `subscriptions` and
   * `publish(topic, msg)`, each a promise (rejected with a SiebogError: 400 a bad topic or group
   * name or this agent's subscriptions at their limit, 404 not subscribed, 504 no answer).
   * @returns {Topics}
   */
  get topics() {
    return new Topics(this);
  }

  /**
   * The tuple space, for this agent: `out(fields, {leaseMs})`, `rdp`, `inp`, `rd(template,
   * {timeoutMs})`, `in(template, {timeoutMs})`; templates match with null fields as wildcards.
   * @returns {TupleSpace}
   */
  get tuples() {
    return new TupleSpace(this);
  }

  /**
   * Saves this agent's state (any JSON value; copied now, so later changes to it are not saved).
   * Resolves with the new `{version}` once Cassandra acknowledged the write: from then on, the
   * agent starts from this state (or a newer one) wherever it starts again. Saves made while one
   * is on its way are coalesced: only the newest is written and all of them settle with it.
   * Rejects with a SiebogError whose `status` says why: 400 not JSON, 413 over the size limit
   * (checked before sending), 503 Cassandra down or slow (the save may or may not have happened:
   * save again), 409 another copy of this agent saved since this one started (this copy is stale,
   * e.g. its device was cut off and the agent started again elsewhere; every later save of it
   * fails too: stop working). A failure nobody awaits is still reported to the page.
   * @param {any} state
   * @returns {Promise<{version: number}>}
   */
  saveState(state) {
    const runtime = this[RUNTIME];
    if (!runtime) throw new Error('this agent is not running yet: save from onStart, onMessage or onStop');
    let json;
    try {
      json = JSON.stringify(state);
    } catch (e) {
      return Promise.reject(new SiebogError(400, `the state is not JSON-serialisable: ${e.message}`));
    }
    if (json === undefined) return Promise.reject(new SiebogError(400, `the state must be a JSON value, got ${typeof state}`));
    return runtime.saveState(json);
  }

  /**
   * Moves this agent to another device through its saved state, as a device that leaves would:
   * `device` (a joined device's id; omitted, one the node picks, never this one) starts it from the
   * state it last saved, so save first (`await this.saveState(...)`), and this device ends it once
   * the current call returns (its onStop does not run: it has not stopped). The messages it has not
   * handled here, and those sent to it meanwhile, reach it there, in order. Resolves with where it
   * goes once the move is under way (code after the await still runs here: keep it short); rejects
   * with a SiebogError if the move is refused (400 no such device or the one it is on, 409 it is
   * starting or moving, 503 no other device may take it now), and the agent goes on here.
   * @param {string|null} [device]
   * @returns {Promise<{location: string}>}
   */
  moveTo(device = null) {
    const runtime = this[RUNTIME];
    if (!runtime) throw new Error('this agent is not running yet: move from onMessage');
    if (device !== null && (typeof device !== 'string' || !device)) {
      return Promise.reject(new SiebogError(400, 'device must be a device id (a non-empty string), or omitted'));
    }
    return runtime.moveTo(device);
  }

  /**
   * Answers `msg`: to its `replyTo` (or its sender), same `conversationId`, protocol, language,
   * encoding and ontology, `inReplyTo` = its `replyWith` (as the Java API's reply). Content must be
   * a string (JSON.stringify structured answers).
   * @param {AclMessage} msg
   * @param {string} performative
   * @param {string|null} [content]
   * @returns {Promise<void>}
   */
  reply(msg, performative, content = null) {
    const to = msg.replyTo ?? msg.sender;
    if (!to) throw new Error('cannot reply: the message has neither replyTo nor sender (it came from a page)');
    return this.send({
      performative,
      receivers: [to],
      content,
      conversationId: msg.conversationId ?? null,
      inReplyTo: msg.replyWith ?? null,
      protocol: msg.protocol ?? null,
      language: msg.language ?? null,
      encoding: msg.encoding ?? null,
      ontology: msg.ontology ?? null,
    });
  }
}

/**
 * Binds a constructed agent to its runtime (worker.js calls this before onStart).
 * @param {object} agent
 * @param {AgentRuntime} runtime
 */
export function attachRuntime(agent, runtime) {
  Object.defineProperty(agent, RUNTIME, { value: Object.freeze({ ...runtime }), enumerable: false });
}

/**
 * Whether a default export is an agent class (a subclass of any copy of Agent).
 * @param {unknown} cls
 */
export function isAgentClass(cls) {
  return typeof cls === 'function' && cls[BRAND] === true;
}
