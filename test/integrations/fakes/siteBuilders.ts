import { FakeWebflow } from './webflow.js';
import { FakeWix } from './wix.js';

export interface SiteBuilderFakes {
  webflow: FakeWebflow;
  wix: FakeWix;
  /** The settings that point a service at both. */
  env: Record<string, string>;
}

let shared: Promise<SiteBuilderFakes> | undefined;

/**
 * One Webflow and one Wix fake for a whole test file, and the env that configures a service with them: the contract
 * tests' service and fixtures share them. Left running until the test process ends, like the fixtures' local site.
 */
export function sharedSiteBuilderFakes(): Promise<SiteBuilderFakes> {
  shared ??= (async () => {
    const [webflow, wix] = await Promise.all([FakeWebflow.start(), FakeWix.start()]);
    return { webflow, wix, env: siteBuilderEnv(webflow, wix) };
  })();
  return shared;
}

/** The operator's Webflow app settings pointing at the fake (the site builder and the webflow destination kind share them). */
export function webflowEnv(webflow: FakeWebflow): Record<string, string> {
  return {
    WEBFLOW_CLIENT_ID: webflow.clientId,
    WEBFLOW_CLIENT_SECRET: webflow.clientSecret,
    WEBFLOW_API_BASE_URL: webflow.origin,
    WEBFLOW_AUTH_URL: `${webflow.origin}/oauth/authorize`,
  };
}

export function siteBuilderEnv(webflow: FakeWebflow, wix: FakeWix): Record<string, string> {
  return {
    ...webflowEnv(webflow),
    WIX_APP_ID: wix.appId,
    WIX_APP_SECRET: wix.appSecret,
    WIX_API_BASE_URL: wix.origin,
  };
}
