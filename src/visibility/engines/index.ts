import type { Config } from '../../config.js';
import { providersOf } from '../../integrations/providers.js';
import type { SerpClient } from '../serp/serp.js';
import { providerLimits } from '../../limits/providerLimits.js';
import type { LimiterStore } from '../../limits/store.js';
import { limitedEngine, onlyEngineErrors } from './concurrency.js';
import type { AnswerEngine, EngineName } from './engine.js';
import type { EngineTuning } from './providerHttp.js';
import { bingCopilotEngine, googleAiOverviewEngine } from './serpEngines.js';

/**
 * The configured engines: the four with their own API from ENGINE_<NAME>_*; Google AI Overviews from the SERP
 * provider's Google page; Copilot from ENGINE_COPILOT_* (a bing_copilot search API) when set, else from the SERP
 * provider's Bing page. An engine missing here is not configured: it is never checked, never `none`.
 */
export function createAnswerEngines(
  config: Config,
  serp: SerpClient | undefined,
  tuning: EngineTuning,
  store: Pick<LimiterStore, 'slots' | 'limiter'>,
): Partial<Record<EngineName, AnswerEngine>> {
  const engines: Partial<Record<EngineName, AnswerEngine>> = {};
  for (const provider of providersOf('answer engine')) {
    const name = provider.id;
    const settings = config.engines[name];
    if (settings !== undefined) {
      engines[name] = limitedEngine(provider.create(settings, tuning), providerLimits(store, `engine:${name}`, { concurrency: tuning.concurrency, perMinute: settings.perMinute }));
    }
  }
  // The SERP client limits its own calls, which rank checks and website look-ups share with the engines read from its pages.
  if (serp !== undefined) {
    engines.google_ai_overview = onlyEngineErrors(googleAiOverviewEngine(serp));
    engines.copilot = onlyEngineErrors(bingCopilotEngine(serp));
  }
  const copilot = config.copilot;
  if (copilot !== undefined) {
    for (const provider of providersOf('copilot search')) {
      engines.copilot = limitedEngine(provider.create(copilot, tuning), providerLimits(store, 'engine:copilot', { concurrency: tuning.concurrency, perMinute: copilot.perMinute }));
    }
  }
  return engines;
}
