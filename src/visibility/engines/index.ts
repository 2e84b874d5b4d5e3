import type { Config } from '../../config.js';
import type { SerpClient } from '../serp/serp.js';
import type { AnswerEngine, EngineName } from './engine.js';

/** Request timeouts and retries of the engine adapters; tests shorten them. */
export interface EngineTuning {
  timeoutMs: number;
  retries: number;
  backoffMs: number;
}

export const DEFAULT_ENGINE_TUNING: EngineTuning = { timeoutMs: 120_000, retries: 2, backoffMs: 2000 };

// PLACEHOLDER (being written in this session): builds the configured engines.
export function createAnswerEngines(_config: Config, _serp: SerpClient | undefined, _tuning: EngineTuning): Partial<Record<EngineName, AnswerEngine>> {
  return {};
}
