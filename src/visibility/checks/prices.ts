import { API_ENGINES, type Config } from '../../config.js';
import { priceAt, type CallPrice } from '../../integrations/kit/declaration.js';
import { providerDeclaration } from '../../integrations/providers.js';
import type { EngineName } from '../engines/engine.js';

export type { CallPrice };

/** What a check run pays for: each engine's calls, and the SERP provider's Google and Bing pages for rank checks. */
export type PaidProvider = EngineName | 'serp_google' | 'serp_bing';

/** When the prices the providers' declarations hold (`limits.prices`) were read from their pricing pages. */
export const PRICES_AS_OF = '2026-11';

/**
 * The published price of one call to each configured provider, known only when the operator points at that provider's
 * own endpoint (a compatible server elsewhere has prices of its own).
 */
export function knownCallPrices(config: Pick<Config, 'engines' | 'serp' | 'copilot'>): Partial<Record<PaidProvider, CallPrice>> {
  const prices: Partial<Record<PaidProvider, CallPrice>> = {};
  for (const engine of API_ENGINES) {
    const settings = config.engines[engine];
    const price = settings === undefined ? undefined : priceAt(providerDeclaration(engine), settings.baseUrl);
    if (price !== undefined) prices[engine] = price;
  }
  const serp = config.serp === undefined ? undefined : priceAt(providerDeclaration('serp'), config.serp.baseUrl);
  if (serp !== undefined) Object.assign(prices, { serp_google: serp, serp_bing: serp, google_ai_overview: serp, copilot: serp });
  if (config.copilot !== undefined) {
    const copilot = priceAt(providerDeclaration('copilot'), config.copilot.baseUrl);
    if (copilot === undefined) delete prices.copilot;
    else prices.copilot = copilot;
  }
  return prices;
}
