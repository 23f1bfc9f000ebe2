// Runs the compute-unit benchmark off the page's thread and posts the result once.
import { measureComputeUnits } from './compute-units.js';

self.postMessage(measureComputeUnits());
