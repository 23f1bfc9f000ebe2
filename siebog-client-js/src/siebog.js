// The library's entry point: `import { Device } from '/siebog/js/siebog.js'`.
export { Device, backoffDelay } from './device.js';
export { Agent } from './agent.js';
export { ComputeUnitSolver, solveChallenge } from './compute-units.js';
export { SiebogError } from './session.js';
export {
  PERFORMATIVES, AclError, validateMessage, parseMessage, toCanonicalJson, parseAid,
} from './acl.js';
