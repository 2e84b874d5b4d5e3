import { API_ENGINES, ENGINE_DEFAULTS, type Config } from '../../config.js';
import type { EngineName } from '../engines/engine.js';

/** What a check run pays for: each engine's calls, and the SERP provider's Google and Bing pages for rank checks. */
export type PaidProvider = EngineName | 'serp_google' | 'serp_bing';

/** A provider's published fixed fee per call, in US dollars; model tokens, where the provider also bills them, come on top. */
export interface CallPrice {
  usdPerCall: number;
  basis: string;
}

/** When the prices below were read from the providers' pricing pages. */
export const PRICES_AS_OF = '2026-11';

const API_ENGINE_PRICES: Record<(typeof API_ENGINES)[number], CallPrice> = {
  chatgpt: { usdPerCall: 0.01, basis: 'OpenAI web search tool: $10 per 1,000 calls, plus tokens' },
  perplexity: { usdPerCall: 0.005, basis: 'Perplexity Sonar request fee (low search context): $5 per 1,000 requests, plus tokens' },
  gemini: { usdPerCall: 0.035, basis: 'Gemini grounding with Google Search: $35 per 1,000 grounded prompts beyond the free daily allowance, plus tokens' },
  claude: { usdPerCall: 0.01, basis: 'Anthropic web search: $10 per 1,000 searches (a call may search more than once), plus tokens' },
};

/** DataForSEO live SERP: $0.002 for the first page of 10 results, each further page 75 % of that; rank checks read 30. */
const DATAFORSEO_SERP: CallPrice = { usdPerCall: 0.002 + 2 * 0.0015, basis: 'DataForSEO live SERP, 30 results: $0.002 for the first page, $0.0015 for each further page' };
const COPILOT_SEARCH_PRICES: Record<string, CallPrice> = {
  'serpapi.com': { usdPerCall: 0.015, basis: 'SerpApi Developer plan: $75 for 5,000 searches a month' },
  'www.searchapi.io': { usdPerCall: 0.004, basis: 'SearchApi Developer plan: $40 for 10,000 searches a month' },
};

const hostOf = (url: string) => new URL(url).hostname;

/**
 * The published price of one call to each configured provider, known only when the operator points at that provider's
 * own endpoint (a compatible server elsewhere has prices of its own).
 */
export function knownCallPrices(config: Pick<Config, 'engines' | 'serp' | 'copilot'>): Partial<Record<PaidProvider, CallPrice>> {
  const prices: Partial<Record<PaidProvider, CallPrice>> = {};
  for (const engine of API_ENGINES) {
    const settings = config.engines[engine];
    if (settings !== undefined && hostOf(settings.baseUrl) === hostOf(ENGINE_DEFAULTS[engine].baseUrl)) prices[engine] = API_ENGINE_PRICES[engine];
  }
  const serp = config.serp !== undefined && hostOf(config.serp.baseUrl) === 'api.dataforseo.com' ? DATAFORSEO_SERP : undefined;
  if (serp !== undefined) Object.assign(prices, { serp_google: serp, serp_bing: serp, google_ai_overview: serp, copilot: serp });
  if (config.copilot !== undefined) {
    const copilot = COPILOT_SEARCH_PRICES[hostOf(config.copilot.baseUrl)];
    if (copilot === undefined) delete prices.copilot;
    else prices.copilot = copilot;
  }
  return prices;
}
