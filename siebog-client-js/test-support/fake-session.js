// A DeviceSession wired to fakes, for the library's unit tests: the frames it writes (parsed, and as text), the commands
// it posts to each agent's "Worker", the events it emits, and its timers (run on demand).
import { DeviceSession } from '../src/session.js';

/**
 * A session wired to fakes: frames written, commands posted to each agent's "Worker", events, timers.
 * @param {{solveChallenge?: Function}} [options] answers the node's compute-unit challenge (default: the library's own, on this thread)
 */
export function fixture({ solveChallenge } = {}) {
  const frames = [];
  const texts = [];
  const events = [];
  const hosts = new Map();
  const timers = [];
  const session = new DeviceSession({
    send: (text) => { texts.push(text); frames.push(JSON.parse(text)); },
    createAgentHost: (aid, onMessage) => {
      const host = { commands: [], terminated: false, onMessage };
      hosts.set(aid, host);
      return { post: (c) => host.commands.push(c), terminate: () => { host.terminated = true; } };
    },
    resolveModule: (path) => `http://host:8080${path}`,
    emit: (type, detail) => events.push({ type, detail }),
    setTimeout: (fn, ms) => { const t = { fn, ms, cleared: false }; timers.push(t); return t; },
    clearTimeout: (t) => { t.cleared = true; },
    solveChallenge,
  });
  const runTimers = () => { for (const t of timers.splice(0)) if (!t.cleared) t.fn(); };
  const take = () => { texts.splice(0); return frames.splice(0); };
  /** The frames written since the last take, as the text that went over the socket. */
  const takeTexts = () => { frames.splice(0); return texts.splice(0); };
  return { session, frames, texts, events, hosts, timers, runTimers, take, takeTexts };
}
