import { cdnService } from '../../src/analytics/cdn/connection.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { CredentialSealer } from '../../src/credentials/sealed.js';
import { MemoryLimiterStore } from '../../src/limits/memoryStore.js';
import { SafeFetcher } from '../../src/outbound/safeFetch.js';
import { SiteContactFinder } from '../../src/outreach/contacts/site.js';
import { SPECIFIED_TIMING, type Services } from '../../src/outsideServices.js';

/** The outside services of a workspace with no provider configured: the code under test reaches none. */
export function offlineServices(clock: Clock): Services {
  const config = loadConfig({});
  return {
    writer: undefined,
    outbound: new SafeFetcher({ allowPrivateAddresses: false }),
    timing: SPECIFIED_TIMING,
    engines: {},
    serp: undefined,
    backlinkIndex: undefined,
    searchConsole: undefined,
    googleAnalytics: undefined,
    cdn: cdnService(config.cdn, clock),
    checkRunsPerQuery: 1,
    callPrices: {},
    siteBuilders: { webflow: undefined, wix: undefined },
    contacts: { hunter: undefined, site: new SiteContactFinder(new SafeFetcher({ allowPrivateAddresses: false }), async () => []) },
    credentials: new CredentialSealer(undefined),
    mail: config.mail,
    notificationMail: undefined,
    publicUrl: 'http://127.0.0.1:8787',
    linkNetwork: { similarityThreshold: 0.8, monthlyCap: 4 },
    backlinkVerification: { everyMs: 7 * 86_400_000, pageTimeoutMs: 15_000 },
    socialSources: {},
    schedulers: { urls: config.schedulerUrls, limits: new MemoryLimiterStore() },
  };
}
