// Bootstrap of the module Worker that hosts one agent. The device talks to it with postMessage:
//
//   device → worker: {type:'start', module, aid, args, state, version} · {type:'deliver', message, seq}
//                    {type:'stop', moved?} · {type:'sendResult', id, error}
//                    {type:'saveResult', id, version, error: null | {status, message, version}}
//                    {type:'moveResult', id, location, error: null | {status, message}}
//   worker → device: {type:'started'} · {type:'handled', seq} · {type:'send', id, message}
//                    {type:'saveState', id, json} · {type:'move', id, device} · {type:'agentError', phase, error}
//                    {type:'stopped'}
//
// A stop with `moved` ends an agent that moves to another device: its onStop does not run.
//
// `state`/`version` in start are the agent's last saved state (null/0 when none). saveState
// carries the state as JSON text (checked and copied when the agent called saveState); its
// saveResult gives the agent's state version as the device now knows it, and the error if the
// save failed (status 409, 413, 429, 503…; `version` is what the server reported).
//
// Calls into the agent run one at a time, in arrival order, each awaited, so an async onMessage
// finishes before the next starts. Whatever the agent throws is reported, never fatal.
//
// An answer to one of the agent's questions (`ask`: a delivery whose inReplyTo is an open
// question's replyWith) settles the question as it arrives, not in the queue: an onMessage that
// awaits an answer would otherwise wait for a delivery queued behind itself. Its `handled` still
// takes its turn in the queue, since the device acknowledges deliveries up to the highest handled seq.
import { attachRuntime, isAgentClass } from './agent.js';
import { withAllFields } from './acl.js';
import { SiebogError } from './session.js';

/** @type {import('./agent.js').Agent | null} */
let agent = null;
let failed = false; // onStart threw: the agent is over, later calls are dropped
let stopped = false;
let queue = Promise.resolve();
let nextSendId = 1;
/** @type {Map<number, {resolve: () => void, reject: (e: Error) => void}>} */
const pendingSends = new Map();
let stateVersion = 0;
let nextSaveId = 1;
let nextMoveId = 1;
/** @type {Map<number, {resolve: (v: {version: number}) => void, reject: (e: Error) => void}>} */
const pendingSaves = new Map();
/** The agent's moves the device has not answered yet. */
const pendingMoves = new Map();
/** The agent's open questions by replyWith (as the server bounds them: siebog.agent.max-pending-asks). */
const MAX_PENDING_ASKS = 1000;
/** @type {Map<string, {take: (answer: object) => void, timer: any}>} */
const pendingAsks = new Map();
/** Calls for proposals that timed out, by replyWith: what takes their late proposals, until when. */
const lateAnswers = new Map();
/** How long late proposals are rejected: the server's siebog.message.max-await-reply-ms default. */
const MAX_AWAIT_REPLY_MS = 300_000;
const CONTRACT_NET = 'fipa-contract-net';

const post = (data) => self.postMessage(data);

/** Runs `task` after every earlier one; the chain never rejects. */
function enqueue(task) {
  queue = queue.then(task, task);
}

self.onmessage = (event) => {
  const cmd = event.data;
  switch (cmd.type) {
    case 'start': enqueue(() => start(cmd)); break;
    case 'deliver':
      if (answersQuestion(cmd)) enqueue(() => post({ type: 'handled', seq: cmd.seq }));
      else enqueue(() => deliver(cmd));
      break;
    case 'stop': enqueue(() => stop(cmd)); break;
    case 'sendResult': settleSend(cmd); break;
    case 'saveResult': settleSave(cmd); break;
    case 'moveResult': settleMove(cmd); break;
    default: post({ type: 'agentError', phase: 'message', error: `worker got an unknown command '${cmd.type}'` });
  }
};

// Errors outside a call (a timer callback, an un-awaited promise) belong to no phase; they are
// reported as 'message' errors, which is what they are closest to: the agent goes on.
self.addEventListener('error', (e) => {
  e.preventDefault();
  post({ type: 'agentError', phase: 'message', error: describe(e.error ?? e.message) });
});
self.addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  post({ type: 'agentError', phase: 'message', error: describe(e.reason) });
});

async function start({ module, aid, args, state, version }) {
  try {
    const exports = await import(module);
    const AgentClass = exports.default;
    if (!isAgentClass(AgentClass)) {
      throw new TypeError(`${module} must default-export a class that extends Agent (from /siebog/js/agent.js)`);
    }
    agent = new AgentClass();
    stateVersion = Number.isInteger(version) ? version : 0;
    attachRuntime(agent, { aid, send: sendFromAgent, ask: askFromAgent, askAll: askAllFromAgent, saveState: saveFromAgent,
      moveTo: moveFromAgent, stateVersion: () => stateVersion });
    await agent.onStart(args ?? {}, state ?? null);
    post({ type: 'started' });
  } catch (e) {
    failed = true;
    post({ type: 'agentError', phase: 'start', error: describe(e) });
  }
}

async function deliver({ message, seq }) {
  if (failed || stopped || !agent) return;
  try {
    await agent.onMessage(withAllFields(message));
  } catch (e) {
    post({ type: 'agentError', phase: 'message', error: describe(e) });
  }
  // Handled either way: a message whose handler threw is reported, not redelivered.
  post({ type: 'handled', seq });
}

/** Ends the agent: its onStop runs, unless it `moved` to another device (it has not stopped; it goes on there). */
async function stop({ moved = false } = {}) {
  if (stopped) return;
  stopped = true;
  // As on the server, a stopped agent's open questions are dropped: they never settle.
  for (const { timer } of pendingAsks.values()) clearTimeout(timer);
  pendingAsks.clear();
  lateAnswers.clear();
  if (agent && !failed && !moved) {
    try {
      await agent.onStop();
    } catch (e) {
      post({ type: 'agentError', phase: 'stop', error: describe(e) });
    }
  }
  post({ type: 'stopped' });
}

function sendFromAgent(message) {
  const id = nextSendId++;
  const promise = new Promise((resolve, reject) => pendingSends.set(id, { resolve, reject }));
  // The device reports failed sends to the page too, so an agent that never awaits loses nothing;
  // this keeps such a promise from also counting as an unhandled rejection.
  promise.catch(() => {});
  post({ type: 'send', id, message });
  return promise;
}

function settleSend({ id, error }) {
  const pending = pendingSends.get(id);
  if (!pending) return;
  pendingSends.delete(id);
  if (error) pending.reject(new Error(error)); else pending.resolve();
}

/** Why a new question cannot be opened now (a rejected promise), or null. */
function noRoomFor(message) {
  if (pendingAsks.size >= MAX_PENDING_ASKS) {
    return Promise.reject(new SiebogError(503, `this agent already awaits answers to ${MAX_PENDING_ASKS} questions; ask again once some are answered or timed out`));
  }
  if (pendingAsks.has(message.replyWith)) {
    return Promise.reject(new SiebogError(400, `a question with replyWith '${message.replyWith}' is already waiting for its answer`));
  }
  return null;
}

/**
 * Sends `message` (it has its replyWith and replyTo) and settles with the first delivery in reply
 * to it, or rejects: the send's refusal, or 504 after `timeoutMs`.
 */
function askFromAgent(message, timeoutMs) {
  const refused = noRoomFor(message);
  if (refused) return refused;
  return new Promise((resolve, reject) => {
    const end = () => { clearTimeout(question.timer); pendingAsks.delete(message.replyWith); };
    const question = {
      take: (answer) => { end(); resolve(answer); },
      reject: (error) => { end(); reject(error); },
      timer: setTimeout(() => question.reject(new SiebogError(504,
        `no reply from ${message.receivers.join(', ')} within ${timeoutMs} ms (the message was delivered)`)), timeoutMs),
    };
    pendingAsks.set(message.replyWith, question);
    sendFromAgent(message).catch((e) => question.reject(e));
  });
}

/**
 * Sends `message` to each receiver on its own and gathers the deliveries in reply to it, until
 * each receiver gave a final answer (not AGREE) or `timeoutMs` passed; never rejects once sent.
 * A receiver the send cannot reach answers, in effect, FAILURE (see undelivered). As on the
 * server (AgentContext#askAll).
 */
function askAllFromAgent(message, timeoutMs) {
  const refused = noRoomFor(message);
  if (refused) return refused;
  let finalsAwaited = message.receivers.some((r) => r.startsWith('topic:')) ? Infinity : message.receivers.length;
  return new Promise((resolve) => {
    const answers = [];
    const end = () => { clearTimeout(question.timer); pendingAsks.delete(message.replyWith); };
    const question = {
      take: (answer) => {
        answers.push(answer);
        if (answer.performative !== 'AGREE' && --finalsAwaited <= 0) { end(); resolve(answers); }
      },
      timer: setTimeout(() => { end(); keepForLateAnswers(message); resolve(answers); }, timeoutMs),
    };
    pendingAsks.set(message.replyWith, question);
    for (const receiver of message.receivers) {
      sendFromAgent({ ...message, receivers: [receiver] }).catch((e) => {
        if (pendingAsks.get(message.replyWith) === question) question.take(undelivered(message, receiver, e));
      });
    }
  });
}

/** The FAILURE a gathering counts for a receiver its question could not reach (no agent sent it). */
function undelivered(question, receiver, error) {
  return withAllFields({
    performative: 'FAILURE', sender: receiver, receivers: [question.sender], conversationId: question.conversationId ?? null,
    protocol: question.protocol ?? null, inReplyTo: question.replyWith, content: `not delivered: ${error.message}`,
    userProperties: { 'siebog-undelivered': 'true' },
  });
}

/**
 * After a call for proposals timed out, its late PROPOSEs are rejected at once (REJECT_PROPOSAL,
 * "too late") and never reach onMessage, for as long as the server would remember it; at most as
 * many such calls are remembered as questions may be open.
 */
function keepForLateAnswers(question) {
  if (question.protocol !== CONTRACT_NET) return;
  if (lateAnswers.size >= MAX_PENDING_ASKS) lateAnswers.delete(lateAnswers.keys().next().value);
  lateAnswers.set(question.replyWith, {
    until: Date.now() + MAX_AWAIT_REPLY_MS,
    take: (late) => {
      if (late.performative !== 'PROPOSE') return false;
      sendFromAgent({
        performative: 'REJECT_PROPOSAL', sender: question.sender, receivers: [late.replyTo ?? late.sender], protocol: CONTRACT_NET,
        conversationId: late.conversationId ?? null, inReplyTo: late.replyWith ?? null,
        content: `too late: proposals were due by ${question.replyBy ?? 'the deadline'}`,
      }).catch(() => {});
      return true;
    },
  });
}

/** Hands `cmd`'s message to the question it answers, if it answers one (open, or taking late answers). */
function answersQuestion(cmd) {
  const inReplyTo = cmd.message?.inReplyTo;
  if (inReplyTo == null || failed || stopped) return false;
  const question = pendingAsks.get(inReplyTo);
  if (question) {
    question.take(withAllFields(cmd.message));
    return true;
  }
  const late = lateAnswers.get(inReplyTo);
  if (!late) return false;
  if (Date.now() > late.until) {
    lateAnswers.delete(inReplyTo);
    return false;
  }
  return late.take(withAllFields(cmd.message));
}

function saveFromAgent(json) {
  const id = nextSaveId++;
  const promise = new Promise((resolve, reject) => pendingSaves.set(id, { resolve, reject }));
  // As with sends, the device reports failed saves to the page, so one nobody awaits is not lost.
  promise.catch(() => {});
  post({ type: 'saveState', id, json });
  return promise;
}

function settleSave({ id, version, error }) {
  if (Number.isInteger(version)) stateVersion = version;
  const pending = pendingSaves.get(id);
  if (!pending) return;
  pendingSaves.delete(id);
  if (error) pending.reject(new SiebogError(error.status, error.message, error.version));
  else pending.resolve({ version });
}

/** The agent asks to move; resolves with where it goes once the node has the move under way, or rejects with the refusal. */
function moveFromAgent(device) {
  const id = nextMoveId++;
  const promise = new Promise((resolve, reject) => pendingMoves.set(id, { resolve, reject }));
  post({ type: 'move', id, device });
  return promise;
}

function settleMove({ id, location, error }) {
  const pending = pendingMoves.get(id);
  if (!pending) return;
  pendingMoves.delete(id);
  if (error) pending.reject(new SiebogError(error.status, error.message));
  else pending.resolve({ location });
}

/** A one-line description of whatever was thrown. */
function describe(thrown) {
  const text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
