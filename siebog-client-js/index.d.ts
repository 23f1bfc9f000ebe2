// Types of the siebog-client library (hand-written; the sources are plain ES modules with JSDoc).

/** The 22 FIPA performatives. */
export type Performative =
  | 'ACCEPT_PROPOSAL' | 'AGREE' | 'CANCEL' | 'CALL_FOR_PROPOSAL' | 'CONFIRM' | 'DISCONFIRM'
  | 'FAILURE' | 'INFORM' | 'INFORM_IF' | 'INFORM_REF' | 'NOT_UNDERSTOOD' | 'PROPAGATE'
  | 'PROPOSE' | 'PROXY' | 'QUERY_IF' | 'QUERY_REF' | 'REFUSE' | 'REJECT_PROPOSAL' | 'REQUEST'
  | 'REQUEST_WHEN' | 'REQUEST_WHENEVER' | 'SUBSCRIBE';

/** An AID in string form, `name@platform`. */
export type AID = string;

/** An ACL message as agents receive it: every field present, absent ones null. */
export interface AclMessage {
  performative: Performative;
  sender: AID | null;
  receivers: AID[];
  replyTo: AID | null;
  content: string | null;
  language: string | null;
  encoding: string | null;
  ontology: string | null;
  protocol: string | null;
  conversationId: string | null;
  replyWith: string | null;
  inReplyTo: string | null;
  /** ISO-8601 instant, e.g. 2026-01-31T12:00:00Z */
  replyBy: string | null;
  userProperties: Record<string, string> | null;
}

/** A message to send: a performative, receivers, and whichever other fields it needs. */
export type AclMessageInit = Partial<AclMessage> & { performative: Performative; receivers: AID[] };

export const PERFORMATIVES: readonly Performative[];

/** A message that breaks the contract; `field` names the culprit (null: not a JSON object). */
export class AclError extends Error {
  readonly field: string | null;
}

/** Checks a message and returns it in canonical form (contract field order, absent fields omitted). */
export function validateMessage(msg: unknown): Partial<AclMessage> & { performative: Performative; receivers: AID[] };
/** Parses message JSON text; throws AclError naming the field. */
export function parseMessage(text: string): Partial<AclMessage> & { performative: Performative; receivers: AID[] };
/** The canonical JSON text of a message, byte for byte what the server writes. */
export function toCanonicalJson(msg: unknown): string;
/** Checks an AID and returns `name@platform` (a bare name gets the platform `siebog`). */
export function parseAid(text: string, field?: string): AID;

/** Any value JSON can hold: what an agent's state may be. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Base class of client agents: an agent module default-exports a subclass. */
export class Agent {
  /** This agent's AID; set before onStart (not yet in the constructor). */
  readonly aid: AID;
  /**
   * The version of this agent's saved state as this device knows it: the one it started with
   * (0 when nothing was ever saved), then that of each save (and after a 503, the server's).
   */
  readonly stateVersion: number;
  /**
   * Called once before any message. `state` is the agent's last saved state (null when none):
   * when a device leaves, its agents start again on other devices from there.
   */
  onStart(args: Record<string, string>, state: any): void | Promise<void>;
  onMessage(msg: AclMessage): void | Promise<void>;
  onStop(): void | Promise<void>;
  /** Sends as this agent; resolves once admitted. Throws AclError at once for a malformed message. */
  send(msg: Omit<AclMessageInit, 'sender'>): Promise<void>;
  /**
   * Sends a question and resolves with its answer: the first message to this agent whose
   * inReplyTo is the question's replyWith (a fresh id unless given; replyTo is this agent). The
   * answer does not reach onMessage; a second answer does. Rejects with a SiebogError: 504 after
   * timeoutMs (default 30,000, at most 300,000), the send's refusal (404, 503…), 400 for a bad
   * timeout or a replyWith already waiting, 503 beyond 1,000 open questions. Never await it in
   * onStart: no message, answers included, reaches an agent before onStart has returned.
   */
  ask(msg: Omit<AclMessageInit, 'sender' | 'replyTo'>, options?: { timeoutMs?: number }): Promise<AclMessage>;
  /**
   * Asks every receiver (each on its own, one replyWith) and resolves with their answers, in arrival
   * order, once each gave a final one (any but AGREE) or after timeoutMs with what came. A receiver
   * the question cannot reach counts as a FAILURE from it (content 'not delivered: …', userProperties
   * {'siebog-undelivered': 'true'}). Late answers reach onMessage, except a PROPOSE to a question of
   * protocol 'fipa-contract-net': rejected at once (REJECT_PROPOSAL, 'too late').
   */
  askAll(msg: Omit<AclMessageInit, 'sender' | 'replyTo'>, options?: { timeoutMs?: number }): Promise<AclMessage[]>;
  /** The interaction protocols, with this agent as initiator (see Protocols). */
  readonly protocols: Protocols;
  /** The directory facilitator, acting for this agent (see DirectoryFacilitator). */
  readonly df: DirectoryFacilitator;
  /** Topics, for this agent: its subscriptions, and publishing (see Topics). */
  readonly topics: Topics;
  /** The tuple space, for this agent (see TupleSpace). */
  readonly tuples: TupleSpace;
  /** Answers msg (to its replyTo, else its sender) in its conversation, protocol, language, encoding and ontology. */
  reply(msg: AclMessage, performative: Performative, content?: string | null): Promise<void>;
  /**
   * Saves this agent's state: any JSON-serialisable value, copied (as JSON) when called, so later
   * changes to the object are not saved. Resolves with the new version once Cassandra
   * acknowledged the write; from then on the agent starts from this state, or a newer one,
   * wherever it starts again. At most one save per agent is on its way: saves made meanwhile
   * wait, only the newest of them is written, and they all settle with that write. When
   * Cassandra is slow, saves wait in the device (in order) rather than fail.
   *
   * Rejects with a SiebogError:
   * - 400: not JSON-serialisable (a cycle, a BigInt, undefined); nothing is sent.
   * - 413: its JSON is over the server's `maxStateBytes` (64 KiB); refused before sending,
   *   nothing changes.
   * - 503: Cassandra is down or did not answer in time, or the device lost its connection. The
   *   save may or may not have been written; the next save goes on from the version the server
   *   reported (`error.version`), so simply save again later.
   * - 409: another copy of this agent saved its state since this one started (typically this
   *   device was cut off, the server started the agent again elsewhere, and that copy saved).
   *   This copy is stale: it keeps its version, so every later save of it is refused with 409
   *   too, and its work will not be kept. Stop working; the other copy carries on from the state
   *   it has (`error.version` is the version it wrote). Only a restart of the agent clears it.
   * - 429: too many state requests of this device waiting for Cassandra (the library never sends
   *   more than the server allows, so only a misbehaving server causes it).
   *
   * A rejection nobody awaits is still reported to the page (`error` event with the agent's aid).
   */
  saveState(state: JsonValue | object): Promise<{ version: number }>;
  /**
   * Moves this agent to another device through its saved state: `device` (a joined device's id;
   * omitted, one the node picks) starts it from what it last saved, with the messages it has not
   * handled, and this device ends it (without onStop) once the current call returns. Resolves with
   * where it goes once the move is under way; rejects if refused (400 no such device or this one,
   * 409 starting or moving, 503 no other device may take it).
   */
  moveTo(device?: string): Promise<{ location: string }>;
}

/** A service in the directory facilitator. */
export interface ServiceDescription {
  type: string;
  name: string;
  protocols?: string[];
  ontologies?: string[];
  languages?: string[];
  properties?: Record<string, string>;
}

/** What a search asks for: each field given must match (lists: the service has them all). */
export type ServiceTemplate = Partial<ServiceDescription>;

/** A registration: who offers the service, and until when (absent: until the agent stops). */
export interface ServiceEntry {
  agent: AID;
  service: Required<ServiceDescription>;
  expires?: string;
}

/**
 * The directory facilitator (the FIPA agent df@<platform>), for one agent: it registers, modifies
 * and deregisters that agent's own services, and searches everyone's. Entries are replicated to
 * every node; a client agent's stay while it moves to another device and go when it is stopped.
 * Rejections are SiebogErrors: 400 a bad service or template (over a limit, a lease under 1 s or
 * over a day), 404 no such service, 504 df did not answer.
 */
export interface DirectoryFacilitator {
  register(service: ServiceDescription, options?: { leaseMs?: number }): Promise<ServiceEntry>;
  modify(service: ServiceDescription, options?: { leaseMs?: number }): Promise<ServiceEntry>;
  deregister(name: string): Promise<void>;
  /** Entries in agent then service-name order; pass the last one as `after` for the next page. */
  search(template?: ServiceTemplate, options?: { limit?: number; after?: ServiceEntry }): Promise<{ entries: ServiceEntry[]; more: boolean }>;
  /**
   * Resolves with a subscription id; each change to a matching service then reaches onMessage as an
   * INFORM from df with that conversationId (protocol 'fipa-subscribe') and content
   * {"change": "registered" | "modified" | "deregistered" | "expired", "entry": ServiceEntry}.
   */
  subscribe(template?: ServiceTemplate, options?: { leaseMs?: number }): Promise<string>;
  unsubscribe(subscription: string): Promise<void>;
}

/**
 * Publish and subscribe, for one agent (docs/agents.md, "Topics"). A message sent to a topic's AID
 * (`topic:<name>@<platform>`) reaches every subscriber, server agents and client agents alike, and
 * one member of each group; its receivers name the topic. Subscriptions go through the FIPA agent
 * topics@<platform>, hold until the agent unsubscribes or stops, and survive its moves to other
 * devices. Rejections are SiebogErrors: 400 a bad topic or group name (1 to 194 characters, no '@',
 * '/', spaces or control characters) or a limit (64 topics per agent, 10,000 subscribers per topic),
 * 404 not subscribed, 504 topics did not answer.
 */
export interface Topics {
  /** `topic:<name>@<this agent's platform>`: send to it to publish. */
  aid(name: string): AID;
  subscribe(topic: string, options?: { group?: string }): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
  subscriptions(): Promise<Array<{ topic: string; group?: string }>>;
  /** Sends msg to the topic's subscribers (and to msg's own receivers); resolves once admitted. */
  publish(topic: string, msg: Omit<AclMessageInit, 'sender' | 'receivers'> & { receivers?: AID[] }): Promise<void>;
}

/**
 * FIPA Request, Contract Net and voting over ordinary messages, the same protocols as the Java API's
 * FipaRequest, ContractNet and Ballot (docs/agents.md, "Interaction protocols"): Java and JavaScript
 * agents take either side. Failures are SiebogErrors: 502 the other agent refused, did not
 * understand or failed (`answer` is its message), or nobody proposed; 504 no final answer in time.
 */
export interface Protocols {
  /** FIPA Request to one agent: resolves with its INFORM (past an AGREE). */
  request(msg: Omit<AclMessageInit, 'sender' | 'replyTo'>, options?: { timeoutMs?: number }): Promise<AclMessage>;
  /** A call for proposals (performative CALL_FOR_PROPOSAL) with a deadline: the PROPOSE answers that came in time. */
  callForProposals(msg: Omit<AclMessageInit, 'sender' | 'replyTo'>, options: { deadlineMs: number }): Promise<AclMessage[]>;
  /** Accepts one proposal (null: none), rejects the others; resolves with the accepted one's INFORM. */
  award(proposals: AclMessage[], accepted: AclMessage | null, options?: { content?: string; timeoutMs?: number }): Promise<AclMessage>;
  /** A ballot: each voter answers INFORM with its choice; counted by plurality or majority. */
  vote(msg: Omit<AclMessageInit, 'sender' | 'replyTo'>, options: { deadlineMs: number; rule: 'PLURALITY' | 'MAJORITY' }): Promise<BallotResult>;
}

/** What a ballot came to: winner null when none won. */
export interface BallotResult {
  winner: string | null;
  tally: Record<string, number>;
  voters: number;
  votes: number;
}

/**
 * A Linda tuple space shared by the platform (docs/agents.md, "Tuple space"): tuples are lists of
 * 1 to 16 strings; a template of the same length matches with its null fields as wildcards. A
 * tuple is taken once, whichever agents race for it, server or client. Rejections are SiebogErrors:
 * 400 a bad tuple, template, lease or timeout, 503 the space or the node's waiters at their bound.
 */
export interface TupleSpace {
  /** Writes a tuple; without leaseMs it stays until taken (a lease: 1 ms to a day). */
  out(fields: string[], options?: { leaseMs?: number }): Promise<void>;
  /** A matching tuple now, left in the space; null when none. */
  rdp(template: Array<string | null>): Promise<string[] | null>;
  /** Takes a matching tuple now; null when none. */
  inp(template: Array<string | null>): Promise<string[] | null>;
  /** Reads a matching tuple, waiting up to timeoutMs (default 30,000) for one; null when none came. */
  rd(template: Array<string | null>, options?: { timeoutMs?: number }): Promise<string[] | null>;
  /** Takes a matching tuple, waiting up to timeoutMs (default 30,000) for one; null when none came. */
  in(template: Array<string | null>, options?: { timeoutMs?: number }): Promise<string[] | null>;
}

/** A request refused by the server (or by the library before sending); status is an HTTP status. */
export class SiebogError extends Error {
  readonly status: number;
  /** An interaction protocol's failure (502): the message that ended it, if one did. */
  readonly answer?: AclMessage;
  /** State errors (409, 503): the agent's state version as the server reported it. */
  readonly version?: number;
}

export interface JoinOptions {
  /** ws(s):// URL of /siebog/ws/device, or the server's http(s) base; default: where the library was loaded from. */
  url?: string;
  /** Shown in GET /api/devices (at most 100 characters). */
  label?: string;
  /**
   * Claim these compute units in `join`. Only a node that trusts claims
   * (siebog.device.trust-claimed-compute-units, test deployments) takes them; any other measures the
   * device with its challenge and ignores the claim.
   */
  computeUnits?: number;
  /** The node's join token, when it admits only devices that show one (siebog.device.join-token). */
  token?: string;
  /** Reconnect as a new device after an unexpected close (default true). */
  reconnect?: boolean;
  /** For non-browser devices: a WebSocket constructor. */
  WebSocket?: { new (url: string): WebSocket };
  /** For non-browser devices: hosts one agent and returns a handle to it. */
  createAgentHost?: (aid: AID, onMessage: (data: object) => void) => { post(command: object): void; terminate(): void };
  /** For non-browser devices: answers the node's compute-unit challenge (default: in a Worker). */
  solveChallenge?: (challenge: ComputeUnitChallenge) => Promise<number[]>;
}

/** The node's `challenge` frame (docs/device-protocol.md, "Compute units"). */
export interface ComputeUnitChallenge {
  /** 16 bytes as 32 hex digits, fresh for every join. */
  seed: string;
  puzzles: number;
  zeroBits: number;
}

/** 'measuring': answering the node's compute-unit challenge, between connecting and joined. */
export type DeviceState = 'connecting' | 'measuring' | 'joined' | 'reconnecting' | 'left';

export interface HostedAgent {
  aid: AID;
  agentClass: string;
  state: 'starting' | 'running' | 'stopping';
  /** Messages this agent has handled on this device. */
  handled: number;
}

export interface DeviceEventMap {
  state: CustomEvent<{ state: DeviceState }>;
  joined: CustomEvent<{ device: string; platform: string | null; computeUnits: number; heartbeatMs: number }>;
  agents: CustomEvent<{ agents: HostedAgent[] }>;
  stats: CustomEvent<{ messagesPerSecond: number; handled: number; sent: number; agents: HostedAgent[] }>;
  agenterror: CustomEvent<{ aid: AID; phase: 'start' | 'message' | 'stop'; error: string }>;
  error: CustomEvent<{ status: number; error: string; aid?: AID }>;
  /** Cassandra acknowledged a save of a hosted agent's state (one event per write, coalesced saves share it). */
  statesaved: CustomEvent<{ aid: AID; version: number }>;
  closed: CustomEvent<{ code: number; reason: string; reconnecting: boolean }>;
}

export class Device extends EventTarget {
  /** Connects, answers the node's compute-unit challenge and resolves once welcomed. */
  static join(options?: JoinOptions): Promise<Device>;
  constructor(options?: JoinOptions);
  /** This device's id (e.g. d-3f9a1c2e) while joined; a new one after each reconnect. */
  readonly id: string | null;
  readonly platform: string | null;
  /** The compute units the node gave this device at its last join (what it measured, or a trusted claim). */
  readonly computeUnits: number | null;
  readonly state: DeviceState;
  readonly agents: HostedAgent[];
  /** (Re)connects and joins; Device.join does this for you. */
  connect(): Promise<Device>;
  /** Sends from the page (sender null); resolves once every receiver's node admitted it. */
  send(msg: AclMessageInit): Promise<void>;
  /** Starts an agent of a class the node lets devices start (by default client agent classes; 403 otherwise), like POST /api/agents. */
  spawn(agentClass: string, name: string, args?: Record<string, string>): Promise<{ aid: AID; location: string }>;
  /** Stops an agent this device hosts; resolves once the server has stopped it (403 for any other agent). */
  stopAgent(aid: AID): Promise<void>;
  /** Moves an agent this device hosts to another device through its saved state (`device` omitted: one the node picks); resolves with where it goes once the move is under way. */
  moveAgent(aid: AID, device?: string): Promise<{ aid: AID; location: string }>;
  /** Leaves: the server restarts this device's agents elsewhere; resolves once the socket closed. */
  leave(): Promise<void>;
  addEventListener<K extends keyof DeviceEventMap>(type: K, listener: (event: DeviceEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof DeviceEventMap>(type: K, listener: (event: DeviceEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
}

/** Answers the node's compute-unit challenge in a Worker (about 0.2 to 1 s of work in a browser). */
export class ComputeUnitSolver {
  static solve(challenge: ComputeUnitChallenge, options?: { timeoutMs?: number }): Promise<number[]>;
}

/** The answer to a challenge on this thread: per puzzle, the first nonce from 0 whose hash has the zero bits asked for. */
export function solveChallenge(challenge: ComputeUnitChallenge): number[];

/** Reconnect delay for attempt n (0-based): 1 s doubling to 30 s, with jitter. */
export function backoffDelay(attempt: number, random?: number): number;
