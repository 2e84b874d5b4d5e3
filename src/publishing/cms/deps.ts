import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { webflowToken } from '../../analytics/builders/connection.js';
import type { Clock } from '../../clock.js';
import type { Services } from '../../outsideServices.js';
import type { CmsDeps } from './constructor.js';

/** What opening a CMS destination needs of the service, for one workspace (its connections are read when asked for). */
export function cmsDeps(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'outbound' | 'credentials' | 'timing' | 'siteBuilders'>, workspaceId: string): CmsDeps {
  return {
    fetcher: services.outbound,
    timeoutMs: services.timing.webhookTimeoutMs,
    now: () => clock.now(),
    connections: {
      webflow: async () => ({ app: services.siteBuilders.webflow, accessToken: await webflowToken(db, services.credentials, workspaceId) }),
    },
  };
}
