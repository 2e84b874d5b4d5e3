import type { Clock } from '../../clock.js';
import type { CdnSettings, CloudflareClient } from '../../integrations/cloudflare/cdn.js';

/** How the CDN's declaration opens its client (`create`): its settings as its `read` gives them and the clock its tokens' expiry and its waits are read by. */
export type CdnConstructor = (settings: CdnSettings, clock: Clock) => CloudflareClient;
