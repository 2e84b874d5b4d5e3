import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { BuilderApiError, builderJson, type BuilderCall } from '../../analytics/builders/http.js';

/** The operator's Wix app with an Embedded Script extension; sites that installed it are reached by their instance id. */
export interface WixSettings {
  appId: string;
  appSecret: string;
  /** Where `/oauth2/token` and `/apps/v1/…` live; overridable for tests. */
  apiBaseUrl: string;
  /** The embedded script extension to fill, needed only when the app has more than one. */
  componentId: string | undefined;
}

/** The site a Wix app instance is installed on, as Wix describes it. */
export interface WixInstanceSite {
  /** The site's published URL; null when Wix gives none (a site never published). */
  url: string | null;
  displayName: string | null;
}

/** The app's embedded script on the site: its dynamic parameters, and whether the owner turned it off. */
export interface WixEmbeddedScript {
  parameters: Record<string, string>;
  disabled: boolean;
}

/** Wix's app APIs as the installer uses them, for one app instance (one site that installed the operator's app). */
export interface WixApi {
  site(): Promise<WixInstanceSite>;
  /** Null when the app has not embedded its script on the site yet. */
  embeddedScript(): Promise<WixEmbeddedScript | null>;
  /** Embeds (or re-embeds) the app's script with these values for its dynamic parameters. */
  embedScript(parameters: Record<string, string>): Promise<void>;
}

const tokenSchema = z.object({ access_token: z.string().min(1) }).loose();
const instanceSchema = z
  .object({ site: z.object({ url: z.string().nullish(), siteDisplayName: z.string().nullish() }).loose().nullish() })
  .loose()
  .transform((answer): WixInstanceSite => ({ url: answer.site?.url ?? null, displayName: answer.site?.siteDisplayName ?? null }));
const scriptSchema = z
  .object({ properties: z.object({ parameters: z.record(z.string(), z.string()).nullish(), disabled: z.boolean().nullish() }).loose().nullish() })
  .loose()
  .transform((answer): WixEmbeddedScript => ({ parameters: answer.properties?.parameters ?? {}, disabled: answer.properties?.disabled ?? false }));

export class WixClient implements WixApi {
  /** Wix's access tokens last four hours; one operation needs one. */
  private token: Promise<string> | undefined;

  constructor(
    private readonly settings: WixSettings,
    private readonly instanceId: string,
    private readonly clock: Clock,
  ) {}

  private accessToken(): Promise<string> {
    this.token ??= builderJson(
      'Wix',
      {
        method: 'POST',
        url: `${this.settings.apiBaseUrl}/oauth2/token`,
        headers: {},
        body: { grant_type: 'client_credentials', client_id: this.settings.appId, client_secret: this.settings.appSecret, instance_id: this.instanceId },
        what: `to a token for app instance ${this.instanceId}`,
      },
      tokenSchema,
      () => this.clock.now(),
    ).then((answer) => answer.access_token);
    return this.token;
  }

  private async call<T>(method: BuilderCall['method'], path: string, what: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    // Wix takes the bare token in Authorization, without a scheme.
    const call: BuilderCall = { method, url: `${this.settings.apiBaseUrl}${path}`, headers: { authorization: await this.accessToken() }, what, ...(body === undefined ? {} : { body }) };
    return builderJson('Wix', call, schema, () => this.clock.now());
  }

  site(): Promise<WixInstanceSite> {
    return this.call('GET', '/apps/v1/instance', 'reading the app instance', instanceSchema);
  }

  async embeddedScript(): Promise<WixEmbeddedScript | null> {
    // Outside the try: an instance Wix does not know (404 on the token) is not a site without the script.
    await this.accessToken();
    try {
      return await this.call('GET', '/apps/v1/scripts', 'reading the embedded script', scriptSchema);
    } catch (error) {
      // Wix answers 404 while the app has no script embedded on the site.
      if (error instanceof BuilderApiError && error.failure === 'not_found') return null;
      throw error;
    }
  }

  async embedScript(parameters: Record<string, string>): Promise<void> {
    const body = { properties: { parameters }, ...(this.settings.componentId === undefined ? {} : { componentId: this.settings.componentId }) };
    await this.call('POST', '/apps/v1/scripts', 'embedding the script', z.unknown(), body);
  }
}
