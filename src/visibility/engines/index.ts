import { API_ENGINES, type ApiEngine, type Config, type EngineSettings } from '../../config.js';
import type { SerpClient } from '../serp/serp.js';
import { providerLimits } from '../../limits/providerLimits.js';
import type { LimiterStore } from '../../limits/store.js';
import { ClaudeEngine } from '../../integrations/anthropic/claudeEngine.js';
import { limitedEngine, onlyEngineErrors } from './concurrency.js';
import type { AnswerEngine, EngineName } from './engine.js';
import { GeminiEngine } from '../../integrations/google/geminiEngine.js';
import { OpenAiResponsesEngine } from '../../integrations/openai/chatgptEngine.js';
import { PerplexityEngine } from '../../integrations/perplexity/perplexityEngine.js';
import type { EngineTuning } from './providerHttp.js';
import { bingCopilotEngine, googleAiOverviewEngine } from './serpEngines.js';
import { BingCopilotSearchEngine } from '../../integrations/microsoft/bingCopilotSearch.js';

const API_ADAPTERS: Record<ApiEngine, new (settings: EngineSettings, tuning: EngineTuning) => AnswerEngine> = {
  chatgpt: OpenAiResponsesEngine,
  perplexity: PerplexityEngine,
  gemini: GeminiEngine,
  claude: ClaudeEngine,
};

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
  for (const name of API_ENGINES) {
    const settings = config.engines[name];
    if (settings !== undefined) {
      engines[name] = limitedEngine(new API_ADAPTERS[name](settings, tuning), providerLimits(store, `engine:${name}`, { concurrency: tuning.concurrency, perMinute: settings.perMinute }));
    }
  }
  // The SERP client limits its own calls, which rank checks and website look-ups share with the engines read from its pages.
  if (serp !== undefined) {
    engines.google_ai_overview = onlyEngineErrors(googleAiOverviewEngine(serp));
    engines.copilot = onlyEngineErrors(bingCopilotEngine(serp));
  }
  if (config.copilot !== undefined) {
    engines.copilot = limitedEngine(
      new BingCopilotSearchEngine(config.copilot, tuning),
      providerLimits(store, 'engine:copilot', { concurrency: tuning.concurrency, perMinute: config.copilot.perMinute }),
    );
  }
  return engines;
}
