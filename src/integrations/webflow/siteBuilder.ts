import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { builderJson, type BuilderCall } from '../../analytics/builders/http.js';

/**
 * What the connection asks of the owner: reading sites, publishing them, and managing the app's custom code (the site
 * builder), and reading and writing CMS collections (a `webflow` destination writes through the same connection).
 */
export const WEBFLOW_SCOPES = ['sites:read', 'sites:write', 'custom_code:read', 'custom_code:write', 'cms:read', 'cms:write'] as const;
/** Webflow's limit on a registered inline script. */
export const MAX_INLINE_SCRIPT_CHARS = 2000;

/** The operator's Webflow Data Client app, which owners authorize for their sites in the dashboard (OAuth code grant). */
export interface WebflowSettings {
  clientId: string;
  clientSecret: string;
  /** Webflow's consent screen. */
  authUrl: string;
  /** Where `/oauth/access_token` and `/v2/…` live; overridable so a local server can play Webflow in tests. */
  apiBaseUrl: string;
}

export interface WebflowSite {
  id: string;
  displayName: string;
  /** ISO times; null for a site never published. */
  lastPublished: string | null;
  lastUpdated: string | null;
  /** The custom domains a publish goes to (besides the webflow.io subdomain). */
  customDomains: Array<{ id: string; url: string }>;
}

export interface RegisteredScript {
  id: string;
  displayName: string;
  version: string;
}

/** A script applied site-wide by this app: Webflow keeps one list per app and site. */
export interface AppliedScript {
  id: string;
  location: 'header' | 'footer';
  version: string;
  attributes?: Record<string, unknown>;
}

export interface SiteCustomCode {
  scripts: AppliedScript[];
  lastUpdated: string | null;
}

/** Webflow's Data API v2 as the installer uses it, for one connection's token. */
export interface WebflowApi {
  listSites(): Promise<WebflowSite[]>;
  site(siteId: string): Promise<WebflowSite>;
  registeredScripts(siteId: string): Promise<RegisteredScript[]>;
  registerInlineScript(siteId: string, script: { sourceCode: string; version: string; displayName: string }): Promise<RegisteredScript>;
  customCode(siteId: string): Promise<SiteCustomCode>;
  /** Replaces the app's whole list of site-wide scripts. */
  applyCustomCode(siteId: string, scripts: readonly AppliedScript[]): Promise<SiteCustomCode>;
  /** Publishes every staged change of the site to these targets. */
  publish(siteId: string, targets: { customDomains: string[]; publishToWebflowSubdomain: boolean }): Promise<void>;
}

const siteSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    shortName: z.string().nullish(),
    lastPublished: z.string().nullish(),
    lastUpdated: z.string().nullish(),
    customDomains: z.array(z.object({ id: z.string(), url: z.string().nullish() }).loose()).nullish(),
  })
  .loose()
  .transform(
    (site): WebflowSite => ({
      id: site.id,
      displayName: site.displayName ?? site.shortName ?? site.id,
      lastPublished: site.lastPublished ?? null,
      lastUpdated: site.lastUpdated ?? null,
      customDomains: (site.customDomains ?? []).map((domain) => ({ id: domain.id, url: domain.url ?? domain.id })),
    }),
  );

const registeredSchema = z
  .object({ id: z.string(), displayName: z.string().nullish(), version: z.string() })
  .loose()
  .transform((script): RegisteredScript => ({ id: script.id, displayName: script.displayName ?? script.id, version: script.version }));

const appliedSchema = z
  .object({ id: z.string(), location: z.enum(['header', 'footer']), version: z.string(), attributes: z.record(z.string(), z.unknown()).nullish() })
  .loose()
  .transform((script): AppliedScript => ({
    id: script.id,
    location: script.location,
    version: script.version,
    ...(script.attributes ? { attributes: script.attributes } : {}),
  }));

const customCodeSchema = z
  .object({ scripts: z.array(appliedSchema).nullish(), lastUpdated: z.string().nullish() })
  .loose()
  .transform((code): SiteCustomCode => ({ scripts: code.scripts ?? [], lastUpdated: code.lastUpdated ?? null }));

const registeredScriptsSchema = z.object({ registeredScripts: z.array(registeredSchema).nullish() });

const tokenSchema = z.object({ access_token: z.string().min(1) }).loose();

/** Where the owner goes to authorize the operator's app for their sites. */
export function webflowAuthorizationUrl(settings: WebflowSettings, redirectUri: string, state: string): string {
  const url = new URL(settings.authUrl);
  url.search = new URLSearchParams({ response_type: 'code', client_id: settings.clientId, redirect_uri: redirectUri, scope: WEBFLOW_SCOPES.join(' '), state }).toString();
  return url.href;
}

/** Trades the code Webflow handed back for an access token (Webflow's tokens do not expire; the owner can revoke them). */
export async function exchangeWebflowCode(settings: WebflowSettings, clock: Clock, code: string, redirectUri: string): Promise<string> {
  const call: BuilderCall = {
    method: 'POST',
    url: `${settings.apiBaseUrl}/oauth/access_token`,
    headers: {},
    body: { client_id: settings.clientId, client_secret: settings.clientSecret, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
    what: 'to the authorization code',
  };
  const answer = await builderJson('Webflow', call, tokenSchema, () => clock.now());
  return answer.access_token;
}

export class WebflowClient implements WebflowApi {
  constructor(
    private readonly settings: WebflowSettings,
    private readonly accessToken: string,
    private readonly clock: Clock,
  ) {}

  private call<T>(method: BuilderCall['method'], path: string, what: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const call: BuilderCall = {
      method,
      url: `${this.settings.apiBaseUrl}/v2${path}`,
      headers: { authorization: `Bearer ${this.accessToken}` },
      what,
      ...(body === undefined ? {} : { body }),
    };
    return builderJson('Webflow', call, schema, () => this.clock.now());
  }

  async listSites(): Promise<WebflowSite[]> {
    const answer = await this.call('GET', '/sites', 'listing the sites', z.object({ sites: z.array(siteSchema).nullish() }));
    return answer.sites ?? [];
  }

  site(siteId: string): Promise<WebflowSite> {
    return this.call('GET', `/sites/${encodeURIComponent(siteId)}`, `reading site ${siteId}`, siteSchema);
  }

  /**
   * One call: Webflow's Data API v2 description of `GET /sites/{site_id}/registered_scripts` (the "Get Registered
   * Scripts" reference, and `scripts.list(site_id)` in the webflow-api SDK generated from it) takes the site id and no
   * query parameter, and a site holds at most 800 registered scripts. The answer's optional `pagination` is not read:
   * there is no further page to ask for.
   */
  async registeredScripts(siteId: string): Promise<RegisteredScript[]> {
    const answer = await this.call('GET', `/sites/${encodeURIComponent(siteId)}/registered_scripts`, 'listing the registered scripts', registeredScriptsSchema);
    return answer.registeredScripts ?? [];
  }

  registerInlineScript(siteId: string, script: { sourceCode: string; version: string; displayName: string }): Promise<RegisteredScript> {
    return this.call('POST', `/sites/${encodeURIComponent(siteId)}/registered_scripts/inline`, 'registering the script', registeredSchema, script);
  }

  customCode(siteId: string): Promise<SiteCustomCode> {
    return this.call('GET', `/sites/${encodeURIComponent(siteId)}/custom_code`, "reading the site's custom code", customCodeSchema);
  }

  applyCustomCode(siteId: string, scripts: readonly AppliedScript[]): Promise<SiteCustomCode> {
    return this.call('PUT', `/sites/${encodeURIComponent(siteId)}/custom_code`, 'applying the scripts', customCodeSchema, { scripts });
  }

  async publish(siteId: string, targets: { customDomains: string[]; publishToWebflowSubdomain: boolean }): Promise<void> {
    await this.call('POST', `/sites/${encodeURIComponent(siteId)}/publish`, 'publishing the site', z.unknown(), targets);
  }
}
