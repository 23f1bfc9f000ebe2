// Answers the node's compute-unit challenge off the page's thread: one message in, one out.
import { solveChallenge } from './compute-units.js';

self.onmessage = ({ data }) => {
  try {
    self.postMessage({ nonces: solveChallenge(data) });
  } catch (e) {
    self.postMessage({ error: `the compute-unit challenge cannot be answered: ${e.message}` });
  }
};
