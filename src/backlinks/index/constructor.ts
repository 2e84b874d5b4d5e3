import type { BacklinkIndexSettings } from '../../integrations/dataforseo/backlinkIndex.js';
import type { LimiterStore } from '../../limits/store.js';
import type { EngineTuning } from '../../visibility/engines/providerHttp.js';
import type { BacklinkIndex } from './provider.js';

/**
 * How the backlink index's declaration opens it (`create`): from what its `read` gave, so no index when it is not
 * configured, with the tuning and the shared limits (the SERP provider's when it shares that account).
 */
export type BacklinkIndexConstructor = (settings: BacklinkIndexSettings | undefined, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>) => BacklinkIndex | undefined;
