// FIPA ACL messages in the contract's JSON form, shared bit for bit with the server
// (see test/fixtures/README.md). Validation is strict and names the offending field, so a typo
// never silently drops data; the canonical form is what travels in frames.

/** The 22 FIPA performatives, in the contract's order. */
export const PERFORMATIVES = Object.freeze([
  'ACCEPT_PROPOSAL', 'AGREE', 'CANCEL', 'CALL_FOR_PROPOSAL', 'CONFIRM', 'DISCONFIRM', 'FAILURE',
  'INFORM', 'INFORM_IF', 'INFORM_REF', 'NOT_UNDERSTOOD', 'PROPAGATE', 'PROPOSE', 'PROXY',
  'QUERY_IF', 'QUERY_REF', 'REFUSE', 'REJECT_PROPOSAL', 'REQUEST', 'REQUEST_WHEN',
  'REQUEST_WHENEVER', 'SUBSCRIBE',
]);

/** Message fields in canonical order. */
export const FIELDS = Object.freeze([
  'performative', 'sender', 'receivers', 'replyTo', 'content', 'language', 'encoding', 'ontology',
  'protocol', 'conversationId', 'replyWith', 'inReplyTo', 'replyBy', 'userProperties',
]);

/** The platform a bare AID (`name` without `@platform`) belongs to, as on the server. */
export const DEFAULT_PLATFORM = 'siebog';

const PERFORMATIVE_SET = new Set(PERFORMATIVES);
const FIELD_SET = new Set(FIELDS);
const STRING_FIELDS = ['content', 'language', 'encoding', 'ontology', 'protocol', 'conversationId',
  'replyWith', 'inReplyTo'];

/** A message (or AID) that breaks the contract; `field` names the culprit, null if not an object at all. */
export class AclError extends Error {
  /** @param {string|null} field @param {string} message */
  constructor(field, message) {
    super(message);
    this.name = 'AclError';
    /** @type {string|null} */
    this.field = field;
  }
}

/**
 * Checks an AID string and returns its canonical `name@platform` form.
 * @param {unknown} text
 * @param {string} [field] the message field it came from, for the error
 * @returns {string}
 */
export function parseAid(text, field = 'aid') {
  if (typeof text !== 'string' || text.length === 0) {
    throw new AclError(field, `message field '${field}': an AID must be a non-empty string 'name@platform', got ${show(text)}`);
  }
  const at = text.lastIndexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  const platform = at < 0 ? DEFAULT_PLATFORM : text.slice(at + 1);
  checkToken(name, 'name', field);
  checkToken(platform, 'platform', field);
  return `${name}@${platform}`;
}

function checkToken(value, what, field) {
  if (value.length === 0 || value.length > 200) {
    throw new AclError(field, `message field '${field}': an AID's ${what} must have 1 to 200 characters, got '${value}'`);
  }
  // Same rule as the server: '@' separates name from platform, '/' would break AIDs in URLs.
  if (/[@/\s\p{Cc}]/u.test(value)) {
    throw new AclError(field, `message field '${field}': an AID's ${what} must not contain '@', '/', spaces or control characters, got '${value}'`);
  }
}

/**
 * Validates a message object and returns a new one in canonical form: fields in contract order,
 * absent (null/undefined) fields omitted, AIDs as `name@platform`, `replyBy` as the UTC instant the
 * server writes, `userProperties` keys sorted (omitted when empty), `receivers` always present.
 * @param {unknown} msg
 * @returns {import('../index').AclMessage}
 */
export function validateMessage(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    throw new AclError(null, `an ACL message must be a JSON object, got ${show(msg)}`);
  }
  for (const key of Object.keys(msg)) {
    if (!FIELD_SET.has(key)) {
      throw new AclError(key, `unknown message field '${key}'; the fields are ${FIELDS.join(', ')}`);
    }
  }
  /** @type {Record<string, unknown>} */
  const out = {};
  const performative = msg.performative;
  if (performative == null) {
    throw new AclError('performative', "a message needs a 'performative'");
  }
  if (typeof performative !== 'string' || !PERFORMATIVE_SET.has(performative)) {
    throw new AclError('performative', `message field 'performative': unknown performative ${show(performative)}; expected one of ${PERFORMATIVES.join(', ')}`);
  }
  out.performative = performative;
  if (msg.sender != null) out.sender = parseAid(string(msg, 'sender'), 'sender');
  out.receivers = receivers(msg.receivers);
  if (msg.replyTo != null) out.replyTo = parseAid(string(msg, 'replyTo'), 'replyTo');
  for (const field of STRING_FIELDS) {
    if (msg[field] != null) out[field] = string(msg, field);
  }
  if (msg.replyBy != null) out.replyBy = instant(string(msg, 'replyBy'));
  const props = userProperties(msg.userProperties);
  if (props) out.userProperties = props;
  // Insertion order above is the canonical order (test/acl.test.js checks it against FIELDS).
  return /** @type {any} */ (out);
}

/**
 * Parses message JSON text into a validated, canonical message object.
 * @param {string} text
 */
export function parseMessage(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AclError(null, `the message is not valid JSON: ${e.message}`);
  }
  return validateMessage(value);
}

/**
 * The canonical JSON text of a message (validating it first).
 * @param {unknown} msg
 * @returns {string}
 */
export function toCanonicalJson(msg) {
  return JSON.stringify(validateMessage(msg));
}

/**
 * A message with every contract field present, absent ones as null: what agents receive, so
 * `msg.content` is never `undefined`.
 * @param {object} msg
 */
export function withAllFields(msg) {
  /** @type {Record<string, unknown>} */
  const full = {};
  for (const field of FIELDS) full[field] = msg[field] ?? (field === 'receivers' ? [] : null);
  return full;
}

function string(msg, field) {
  const value = msg[field];
  if (typeof value !== 'string') {
    throw new AclError(field, `message field '${field}' must be a string, got ${show(value)}`);
  }
  return value;
}

function receivers(value) {
  if (value == null) return [];
  if (!Array.isArray(value)) {
    throw new AclError('receivers', `message field 'receivers' must be an array of AIDs, got ${show(value)}`);
  }
  return value.map((item) => {
    if (typeof item !== 'string') {
      throw new AclError('receivers', `message field 'receivers' must hold AID strings, got ${show(item)}`);
    }
    return parseAid(item, 'receivers');
  });
}

function userProperties(value) {
  if (value == null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AclError('userProperties', `message field 'userProperties' must be an object of strings, got ${show(value)}`);
  }
  const keys = Object.keys(value).sort(compareUtf16);
  if (keys.length === 0) return null;
  /** @type {Record<string, string>} */
  const out = {};
  for (const key of keys) {
    if (typeof value[key] !== 'string') {
      // The fixtures name the property itself as the offending field.
      throw new AclError(key, `user property '${key}' must be a string, got ${show(value[key])}`);
    }
    out[key] = value[key];
  }
  return out;
}

// Java's TreeMap<String, …> orders by UTF-16 code units, which is also what `<` does on JS strings.
function compareUtf16(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checks an ISO-8601 instant and writes it the way the server's `Instant.toString()` does: UTC,
 * `Z`, seconds always shown, fraction omitted when zero, else in groups of three digits.
 * @param {string} text
 */
export function instant(text) {
  const m = INSTANT.exec(text);
  const bad = () => new AclError('replyBy',
    `message field 'replyBy' must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, got '${text}'`);
  if (!m) throw bad();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
    throw bad();
  }
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = m[8].slice(1).split(':').map(Number);
    if (oh > 18 || om > 59) throw bad();
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Whole seconds through Date (exact); the fraction stays as digits so nanoseconds survive.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const y = date.getUTCFullYear();
  if (y < 0 || y > 9999) throw bad();
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  let fraction = (m[7] ?? '').replace(/0+$/, '');
  if (fraction.length > 0) fraction = '.' + fraction.padEnd(Math.ceil(fraction.length / 3) * 3, '0');
  return `${pad(y, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:` +
    `${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${fraction}Z`;
}

function show(value) {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * A fresh id, `<prefix>-` and 96 random bits in hex: a question's replyWith, a conversation's id
 * (crypto.randomUUID exists in secure contexts only, and a host page may be served over plain HTTP).
 */
export function freshId(prefix) {
  const words = crypto.getRandomValues(new Uint32Array(3));
  return `${prefix}-${[...words].map((w) => w.toString(16).padStart(8, '0')).join('')}`;
}
