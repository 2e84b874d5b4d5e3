import type { SerpSettings } from '../../integrations/dataforseo/serp.js';
import type { LimiterStore } from '../../limits/store.js';
import type { EngineTuning } from '../engines/providerHttp.js';
import type { SerpClient } from './serp.js';

/**
 * How the SERP provider's declaration opens its client (`create`): from what its `read` gave, so no client when it is
 * not configured, with the tuning and the shared limits its calls wait for.
 */
export type SerpConstructor = (settings: SerpSettings | undefined, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>) => SerpClient | undefined;
