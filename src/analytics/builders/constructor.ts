import type { Clock } from '../../clock.js';
import type { WebflowApi, WebflowSettings } from '../../integrations/webflow/siteBuilder.js';

/** How Webflow's declaration opens its client (`create`): the operator's app as its `read` gives it, a workspace's access token and the clock its waits are read by. */
export type WebflowConstructor = (settings: WebflowSettings, accessToken: string, clock: Clock) => WebflowApi;
