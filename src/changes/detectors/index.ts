import { crawlerVisitsDetector } from './crawlerVisits.js';
import type { ChangeDetector } from './detector.js';

/** Every detector run after a check run, in this order. */
export const RUN_DETECTORS: readonly ChangeDetector[] = [crawlerVisitsDetector];
