import type { Clock } from '../../clock.js';
import type { WebflowApi, WebflowSettings } from '../../integrations/webflow/siteBuilder.js';
import type { WixApi, WixSettings } from '../../integrations/wix/siteBuilder.js';

/** How Webflow's declaration opens its client (`create`): the operator's app as its `read` gives it, a workspace's access token and the clock its waits are read by. */
export type WebflowConstructor = (settings: WebflowSettings, accessToken: string, clock: Clock) => WebflowApi;

/** How Wix's declaration opens its client (`create`): the operator's app as its `read` gives it, the site's app instance and the clock its waits are read by. */
export type WixConstructor = (settings: WixSettings, instanceId: string, clock: Clock) => WixApi;
