import { declareProvider } from '../kit/declaration.js';
import type { WebAnalyticsConstructor } from '../../analytics/providers/constructor.js';
import { PROVIDER_LABELS } from '../../analytics/providers/labels.js';
import { UmamiProvider } from './webAnalytics.js';

/** A web-analytics provider each workspace connects with its own account and key: nothing for the operator to set. */
export const UMAMI = declareProvider({
  id: 'umami',
  family: 'web analytics',
  label: PROVIDER_LABELS.umami,
  turnedOnBy: [],
  settings: [],
  create: ((connection, deps) =>
    new UmamiProvider(
      connection.kind === 'self-hosted'
        ? { kind: 'self-hosted', baseUrl: connection.baseUrl, username: connection.username, password: connection.password, websiteId: connection.websiteId, siteHost: deps.siteHost }
        : { kind: 'cloud', baseUrl: connection.baseUrl, apiKey: connection.apiKey, websiteId: connection.websiteId, siteHost: deps.siteHost },
      deps.outbound,
    )) satisfies WebAnalyticsConstructor<'umami'>,
  read(): object {
    return {};
  },
});
