// Loads src/worker.js in this process with `self` standing in for a Worker's global scope. Node's
// test runner gives each test file its own process, so each file hosts one agent. This lives
// outside test/ because `node --test` runs every .js file under a test/ directory.
export const posted = [];

export async function loadWorker() {
  const scope = new EventTarget();
  scope.postMessage = (data) => posted.push(structuredClone(data));
  globalThis.self = scope;
  await import('../src/worker.js');
}

export const command = (data) => globalThis.self.onmessage({ data });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * Waits until at least `atLeast` reports were posted (up to 10 s: a loaded machine can take long
 * to import an agent module), then `ms` more so any report that should not be there shows up.
 */
export const settle = async (ms = 60, atLeast = 0) => {
  for (const deadline = Date.now() + 10_000; posted.length < atLeast && Date.now() < deadline;) await sleep(10);
  await sleep(ms);
};
export const take = () => posted.splice(0);
export const agentModule = (name) => new URL(`./agents/${name}.js`, import.meta.url).href;
