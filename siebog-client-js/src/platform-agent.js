// The platform's own FIPA agents (df@<platform>, topics@<platform>) take a REQUEST whose content is
// a JSON action and answer INFORM with the result, or FAILURE / NOT_UNDERSTOOD {"status", "error"}.
import { SiebogError } from './session.js';

/** How long an action waits by default: writes reach every node first, which takes milliseconds. */
const ACTION_TIMEOUT_MS = 10_000;

/**
 * Asks `local`@<the agent's platform> to do `action` for `agent`; resolves with the INFORM's JSON,
 * rejects with a SiebogError carrying the refusal's status (502 for an answer that is not JSON).
 * @param {import('./agent.js').Agent} agent
 * @param {string} local the platform agent's local name
 * @param {string} ontology
 * @param {object} action
 * @param {number} [timeoutMs] how long to wait for the answer
 */
export async function askPlatformAgent(agent, local, ontology, action, timeoutMs = ACTION_TIMEOUT_MS) {
  const platform = agent.aid.slice(agent.aid.indexOf('@') + 1);
  const answer = await agent.ask({
    performative: 'REQUEST', receivers: [`${local}@${platform}`], language: 'json', ontology, content: JSON.stringify(action),
  }, { timeoutMs });
  let content;
  try {
    content = JSON.parse(answer.content);
  } catch {
    throw new SiebogError(502, `${local} answered ${answer.performative} with content that is not JSON: ${String(answer.content).slice(0, 200)}`);
  }
  if (answer.performative === 'INFORM') return content;
  throw new SiebogError(content.status ?? 502, content.error ?? `${local} answered ${answer.performative}`);
}
