import { citationDetector } from './citations.js';
import { competitorDetector } from './competitors.js';
import { crawlerVisitsDetector } from './crawlerVisits.js';
import type { ChangeDetector } from './detector.js';
import { rankDetector } from './ranks.js';
import { sourceDetector } from './sources.js';
import { visibilityDetector } from './visibility.js';

/** Every detector run after a check run, in this order. */
export const RUN_DETECTORS: readonly ChangeDetector[] = [visibilityDetector, citationDetector, competitorDetector, sourceDetector, rankDetector, crawlerVisitsDetector];
