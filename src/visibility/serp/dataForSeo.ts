import type { SerpSettings } from '../../config.js';
import type { EngineTuning } from '../engines/index.js';
import type { SerpClient } from './serp.js';

// PLACEHOLDER (being written in this session): the DataForSEO-compatible SERP client.
export function createSerpClient(_settings: SerpSettings | undefined, _tuning: EngineTuning): SerpClient | undefined {
  return undefined;
}
