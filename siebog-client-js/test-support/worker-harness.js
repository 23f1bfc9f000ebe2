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
export const settle = (ms = 60) => new Promise((r) => setTimeout(r, ms));
export const take = () => posted.splice(0);
export const agentModule = (name) => new URL(`./agents/${name}.js`, import.meta.url).href;
