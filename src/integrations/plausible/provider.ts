import { declareProvider } from '../kit/declaration.js';
import type { WebAnalyticsConstructor } from '../../analytics/providers/constructor.js';
import { PROVIDER_LABELS } from '../../analytics/providers/labels.js';
import { PlausibleProvider } from './webAnalytics.js';

/** A web-analytics provider each workspace connects with its own account and key: nothing for the operator to set. */
export const PLAUSIBLE = declareProvider({
  id: 'plausible',
  family: 'web analytics',
  label: PROVIDER_LABELS.plausible,
  turnedOnBy: [],
  settings: [],
  create: ((connection, deps) => new PlausibleProvider({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, siteId: connection.siteId }, deps.outbound)) satisfies WebAnalyticsConstructor<'plausible'>,
  read(): object {
    return {};
  },
});
