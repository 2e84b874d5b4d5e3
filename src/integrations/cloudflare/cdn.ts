import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type Clock, systemClock } from '../../clock.js';
import { AI_CRAWLERS, type Classification, classifyUserAgent } from '../../crawlers/classify.js';
import { ProviderClient, systemTiming, type ProviderAnswer } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import { providerMessage } from '../kit/providerMessage.js';
import { DEFAULT_ZONE_LIMITS, HOUR_MS, type TrafficWindow, type ZoneLimits } from '../../analytics/cdn/backfill.js';
import { CloudflareAuthError, CloudflareError, CloudflareRateLimitError } from '../../analytics/cdn/errors.js';

/** Where Cloudflare answers; tests and operators behind a proxy point these elsewhere. */
export interface CloudflareEndpoints {
  authUrl: string;
  tokenUrl: string;
  /** The API root the REST paths (`/zones`) and `/graphql` hang from. */
  apiBaseUrl: string;
}

export const CLOUDFLARE_ENDPOINTS: CloudflareEndpoints = {
  authUrl: 'https://dash.cloudflare.com/oauth2/auth',
  tokenUrl: 'https://dash.cloudflare.com/oauth2/token',
  apiBaseUrl: 'https://api.cloudflare.com/client/v4',
};

const REQUEST_TIMEOUT_MS = 30_000;
/** Cloudflare blocks a spent budget for five minutes ("try again after 5 minutes"): the wait when no Retry-After says otherwise. */
const DEFAULT_RETRY_AFTER_SECONDS = 300;
/** A job looks again within the hour, whatever a Retry-After asks. */
const MAX_RETRY_AFTER_MS = 3_600_000;
/** The largest page the zones API serves. */
const ZONES_PER_PAGE = 50;

/**
 * Only agents on the ai.robots.txt list are kept. This source answers which AI systems read the site; search engines'
 * crawling is what Search Console reports from Google's side, and a zone's browsers, uptime probes and SEO tools
 * would otherwise make up most of what is stored (every user agent × path × hour is a group of its own).
 */
const AI_CRAWLER_TOKENS: ReadonlySet<string> = new Set(AI_CRAWLERS.map((crawler) => crawler.crawler));

/** A PKCE code verifier: 256 random bits, base64url (43 characters, within RFC 7636's 43 to 128). */
export function pkceVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * An API token the owner pasted instead of connecting with OAuth; it is used as a Bearer token exactly like an OAuth
 * access token. Surrounding spaces and a copied "Bearer " prefix are dropped. The Global API Key (37 hex characters) is
 * refused: it opens the whole account with every right and is not a Bearer token.
 */
export function pastedApiToken(text: string): string {
  const token = text.trim().replace(/^Bearer\s+/i, '');
  if (/^[0-9a-f]{37}$/.test(token)) {
    throw new CloudflareError(
      'this is the Global API Key, which opens the whole account: create an API token with the Zone → Zone → Read and Zone → Analytics → Read permissions instead',
    );
  }
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) throw new CloudflareError('this does not look like a Cloudflare API token (20 or more letters, digits, "-" and "_")');
  return token;
}

/** The OAuth client the operator registered at Cloudflare (each self-hosted service registers its own). */
export interface CloudflareOAuthClient {
  clientId: string;
  /** Absent for a public client (token authentication `none`), which PKCE alone protects. */
  clientSecret?: string;
  /** How a confidential client authenticates at the token endpoint, as registered; the form body unless told otherwise. */
  tokenAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** The one-time state the callback must bring back (stored hashed by the caller). */
  state: string;
  /** pkceChallenge(verifier); the verifier stays with the caller until the code exchange. */
  codeChallenge: string;
  /** Cloudflare scopes are named after API-token permissions. */
  scopes: readonly string[];
}

export interface CloudflareTokens {
  accessToken: string;
  /** Null when Cloudflare handed none: the owner connects again once the access token expires. */
  refreshToken: string | null;
  /** Epoch milliseconds; null when Cloudflare did not say. */
  expiresAt: number | null;
  /** What was granted, when Cloudflare says; the caller compares it with what it asked for. */
  scopes: string[] | null;
}

export interface CloudflareZone {
  id: string;
  name: string;
  plan: string | null;
  /**
   * `active`, `pending`, `initializing`, `moved`: only an active zone carries traffic. `unknown` when Cloudflare left
   * the status out (its API description makes it optional): nothing says such a zone is active, so it is not reported
   * as one, and the zone stays listed (and selectable) because it may well be the site's.
   */
  status: string;
}

const UNKNOWN_ZONE_STATUS = 'unknown';

/** Requests of one AI crawler user agent to one path within one UTC hour, as Cloudflare's edge counted them. */
export interface CrawlerHour extends Classification {
  /** The hour's start, epoch milliseconds. */
  hour: number;
  userAgent: string;
  path: string;
  requests: number;
}

export interface CrawlerTraffic {
  /** Oldest hour first; within an hour, the most requested first. */
  rows: CrawlerHour[];
  /**
   * Hours whose groups did not fit in one page even alone: only the busiest groups of those hours are in `rows`, so
   * their counts are lower bounds.
   */
  incompleteHours: number[];
}

export interface CdnSettings {
  /** CDN_CLIENT_ID and CDN_CLIENT_SECRET; undefined: owners connect by pasting an API token only. */
  oauth: { clientId: string; clientSecret: string; tokenAuthMethod: 'client_secret_basic' | 'client_secret_post' } | undefined;
  /** CDN_SCOPES: what the authorization asks for, as the OAuth client was registered with. */
  scopes: string[];
  /** CDN_AUTH_URL, CDN_TOKEN_URL, CDN_API_BASE_URL: Cloudflare's, unless a proxy (or a test) stands in. */
  endpoints: CloudflareEndpoints;
}

export interface CloudflareClientOptions {
  endpoints?: Partial<CloudflareEndpoints>;
  timeoutMs?: number;
  clock?: Clock;
}

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/**
 * GET /zones as Cloudflare's API description has it (cloudflare/api-schemas, operation `zones-get`): `result_info` and
 * every field in it (`zones_result_info`) are optional, and so is a zone's `status` (`zones_zone`).
 */
const zonesPageSchema = z.object({
  result: z.array(z.object({ id: z.string(), name: z.string(), status: z.string().nullish(), plan: z.object({ name: z.string().nullish() }).nullish() })),
  result_info: z
    .object({
      per_page: z.number().int().positive().nullish(),
      total_count: z.number().int().nonnegative().nullish(),
      total_pages: z.number().int().nonnegative().nullish(),
    })
    .nullish(),
});

type ZonesPage = z.infer<typeof zonesPageSchema>;

const graphqlAnswerSchema = z.object({ data: z.unknown(), errors: z.array(z.object({ message: z.string() })).nullish() });

const zoneLimitsSchema = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        settings: z
          .object({
            httpRequestsAdaptiveGroups: z.object({ maxDuration: z.number().nullish(), maxPageSize: z.number().nullish(), notOlderThan: z.number().nullish() }).nullish(),
          })
          .nullish(),
      }),
    ),
  }),
});

const trafficSchema = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        httpRequestsAdaptiveGroups: z.array(
          z.object({
            count: z.number().int().nonnegative(),
            dimensions: z.object({ datetimeHour: z.string(), userAgent: z.string(), clientRequestPath: z.string() }),
          }),
        ),
      }),
    ),
  }),
});

const ZONE_LIMITS_QUERY = `query ZoneLimits($zoneTag: string!) {
  viewer {
    zones(filter: { zoneTag: $zoneTag }) {
      settings { httpRequestsAdaptiveGroups { maxDuration maxPageSize notOlderThan } }
    }
  }
}`;

const trafficQuery = (limit: number) => `query CrawlerTraffic($zoneTag: string!, $filter: ZoneHttpRequestsAdaptiveGroupsFilter_InputObject!) {
  viewer {
    zones(filter: { zoneTag: $zoneTag }) {
      httpRequestsAdaptiveGroups(limit: ${limit}, filter: $filter, orderBy: [datetimeHour_ASC, count_DESC]) {
        count
        dimensions { datetimeHour userAgent clientRequestPath }
      }
    }
  }
}`;

// Messages of Cloudflare's documented GraphQL error types: GraphQL errors carry no code, and most arrive inside a 200.
const GRAPHQL_RATE_LIMITED = /rate limiter budget depleted|queries too many nodes|consumed excessive resources/i;
const GRAPHQL_UNAUTHORIZED = /^unauthorized$|not authorized|does not have access to the path/i;
const GRAPHQL_UNAVAILABLE = /try again later|internal server error/i;

const GRAPHQL = "Cloudflare's GraphQL API";
const ZONES_API = "Cloudflare's zones API";
const TOKEN_ENDPOINT = "Cloudflare's token endpoint";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined for Basic authentication. */
function formEncoded(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/** Cloudflare's Time scalar, as its examples write it: RFC 3339 in UTC without fractions of a second. */
function cloudflareTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isWholeHours(window: TrafficWindow): boolean {
  return Number.isInteger(window.since / HOUR_MS) && Number.isInteger(window.until / HOUR_MS) && window.since < window.until;
}

/**
 * Whether the zones page numbered `page` is the last, from whichever of Cloudflare's optional counts it carries:
 * `total_pages`; else `total_count` against the zones read so far; else a page holding fewer zones than its
 * `per_page` (or than asked for) ends the list. The page's own length stands for `count`, which the description calls
 * the total but Cloudflare fills with the page's size.
 */
function lastZonesPage(page: number, answer: ZonesPage, zonesRead: number): boolean {
  const info = answer.result_info;
  if (typeof info?.total_pages === 'number') return page >= info.total_pages;
  if (typeof info?.total_count === 'number') return zonesRead >= info.total_count;
  return answer.result.length < (info?.per_page ?? ZONES_PER_PAGE);
}

function positiveOr(value: number | null | undefined, fallback: number): number {
  return value !== null && value !== undefined && value > 0 ? value : fallback;
}

/**
 * Cloudflare on behalf of one workspace's owner: the OAuth authorization-code flow with PKCE (or a pasted API token
 * in place of its access token), the zones the token can read, and AI-crawler traffic per hour from the GraphQL
 * analytics API. Nothing is installed on the zone, and nothing is stored here: the caller keeps refresh tokens and
 * pasted API tokens sealed (CredentialSealer). Failures are CloudflareRateLimitError (wait), CloudflareAuthError
 * (connect again) or CloudflareError (with Cloudflare's message; `retryable` when another attempt may succeed).
 */
export class CloudflareClient {
  private readonly endpoints: CloudflareEndpoints;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly http: ProviderClient;

  constructor(options: CloudflareClientOptions = {}) {
    this.endpoints = { ...CLOUDFLARE_ENDPOINTS, ...options.endpoints };
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.http = new ProviderClient({
      label: 'Cloudflare',
      reach: { kind: 'operator' },
      timeoutMs: this.timeoutMs,
      maxWaitMs: MAX_RETRY_AFTER_MS,
      timing: { ...systemTiming, now: () => this.clock.now() },
    });
  }

  /** Where the owner's browser goes to grant access: the authorization-code flow with an S256 PKCE challenge. */
  authorizationUrl(request: AuthorizationRequest): string {
    const url = new URL(this.endpoints.authUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', request.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('scope', request.scopes.join(' '));
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  /** The callback's code exchanged for tokens, with the verifier of the challenge sent and the same redirect URI. */
  exchangeCode(client: CloudflareOAuthClient, grant: { code: string; codeVerifier: string; redirectUri: string }): Promise<CloudflareTokens> {
    return this.tokenGrant(
      client,
      { grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier },
      'authorization code exchange',
    );
  }

  /**
   * A fresh access token. A refresh may hand out a new refresh token too (rotation): the caller stores the one
   * answered, which is the old one when Cloudflare sent none.
   */
  async refreshToken(client: CloudflareOAuthClient, refreshToken: string): Promise<CloudflareTokens> {
    const tokens = await this.tokenGrant(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh of the stored authorization');
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  }

  /** Every zone the token can read, page after page. */
  async listZones(token: string): Promise<CloudflareZone[]> {
    const zones = new Map<string, CloudflareZone>();
    for (let page = 1; ; page++) {
      const parsed = zonesPageSchema.safeParse(await this.api(token, `/zones?page=${page}&per_page=${ZONES_PER_PAGE}`, undefined, ZONES_API));
      if (!parsed.success) throw new CloudflareError(`${ZONES_API} answered a zone list of an unexpected shape`, false, 'bad_answer');
      const before = zones.size;
      for (const zone of parsed.data.result) zones.set(zone.id, { id: zone.id, name: zone.name, plan: zone.plan?.name ?? null, status: zone.status ?? UNKNOWN_ZONE_STATUS });
      // A page that adds no zone ends the list: a server repeating a page cannot keep this loop going.
      if (zones.size === before || lastZonesPage(page, parsed.data, zones.size)) return [...zones.values()];
    }
  }

  /** How far back and how wide the zone's plan lets httpRequestsAdaptiveGroups read; defaults for what the settings node leaves out. */
  async zoneLimits(token: string, zoneId: string): Promise<ZoneLimits> {
    const parsed = zoneLimitsSchema.safeParse(await this.graphql(token, ZONE_LIMITS_QUERY, { zoneTag: zoneId }));
    if (!parsed.success) throw new CloudflareError(`${GRAPHQL} answered the settings of zone ${zoneId} in an unexpected shape`, false, 'bad_answer');
    const zone = parsed.data.viewer.zones[0];
    if (zone === undefined) throw new CloudflareAuthError(`the token cannot read zone ${zoneId}`);
    const node = zone.settings?.httpRequestsAdaptiveGroups;
    return {
      retentionSeconds: positiveOr(node?.notOlderThan, DEFAULT_ZONE_LIMITS.retentionSeconds),
      maxDurationSeconds: positiveOr(node?.maxDuration, DEFAULT_ZONE_LIMITS.maxDurationSeconds),
      maxPageSize: positiveOr(node?.maxPageSize, DEFAULT_ZONE_LIMITS.maxPageSize),
    };
  }

  /**
   * AI-crawler requests to the zone per hour, user agent and path over a window of whole hours (one of planBackfill's,
   * or the hours since the last sync), classified with the service's crawler lists. `pageSize`: the zone's maxPageSize.
   */
  async crawlerTraffic(token: string, zoneId: string, window: TrafficWindow, pageSize = DEFAULT_ZONE_LIMITS.maxPageSize): Promise<CrawlerTraffic> {
    if (!isWholeHours(window)) throw new RangeError('crawler traffic is read in whole UTC hours: since and until must be hour boundaries, since before until');
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError('the page size must be a positive whole number');
    const rows: CrawlerHour[] = [];
    const incompleteHours: number[] = [];
    const pending: TrafficWindow[] = [window];
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      const groups = await this.adaptiveGroups(token, zoneId, next, pageSize);
      const hours = (next.until - next.since) / HOUR_MS;
      if (groups.length >= pageSize && hours > 1) {
        // A full page may have left groups out and the API has no cursor: the window is halved on an hour boundary
        // until each part fits, oldest part first so that the rows stay in order.
        const middle = next.since + Math.floor(hours / 2) * HOUR_MS;
        pending.unshift({ since: next.since, until: middle }, { since: middle, until: next.until });
        continue;
      }
      if (groups.length >= pageSize) incompleteHours.push(next.since);
      for (const group of groups) {
        const classification = classifyUserAgent(group.dimensions.userAgent);
        if (!AI_CRAWLER_TOKENS.has(classification.crawler)) continue;
        const hour = Date.parse(group.dimensions.datetimeHour);
        if (Number.isNaN(hour)) throw new CloudflareError(`${GRAPHQL} answered an hour that is not a time: ${group.dimensions.datetimeHour.slice(0, 50)}`);
        rows.push({ hour, userAgent: group.dimensions.userAgent, path: group.dimensions.clientRequestPath, requests: group.count, ...classification });
      }
    }
    return { rows, incompleteHours };
  }

  private async adaptiveGroups(token: string, zoneId: string, window: TrafficWindow, limit: number) {
    const filter = {
      datetime_geq: cloudflareTime(window.since),
      datetime_lt: cloudflareTime(window.until),
      // Visitors' requests only: Cloudflare's own traffic to the zone (Workers subrequests and the like) is no crawler's.
      requestSource: 'eyeball',
    };
    const parsed = trafficSchema.safeParse(await this.graphql(token, trafficQuery(limit), { zoneTag: zoneId, filter }));
    if (!parsed.success) throw new CloudflareError(`${GRAPHQL} answered the traffic of zone ${zoneId} in an unexpected shape`, false, 'bad_answer');
    const zone = parsed.data.viewer.zones[0];
    if (zone === undefined) throw new CloudflareAuthError(`the token cannot read zone ${zoneId}`);
    return zone.httpRequestsAdaptiveGroups;
  }

  /**
   * One GraphQL query. Errors inside a 200 are failures like HTTP ones, and a partial answer is refused whole: hours
   * stored with groups missing would look complete.
   */
  private async graphql(token: string, query: string, variables: Record<string, unknown>): Promise<unknown> {
    const answer = graphqlAnswerSchema.safeParse(await this.api(token, '/graphql', { query, variables }, GRAPHQL));
    if (!answer.success) throw new CloudflareError(`${GRAPHQL} answered in an unexpected shape`, false, 'bad_answer');
    const messages = (answer.data.errors ?? []).map((error) => error.message);
    if (messages.length === 0) return answer.data.data;
    const message = messages.join('; ').slice(0, 500);
    if (messages.some((text) => GRAPHQL_RATE_LIMITED.test(text))) throw this.rateLimited(GRAPHQL, undefined, message);
    if (messages.some((text) => GRAPHQL_UNAUTHORIZED.test(text))) throw new CloudflareAuthError(`${GRAPHQL} refused the token (${message})`);
    throw new CloudflareError(`${GRAPHQL} refused the query: ${message}`, messages.every((text) => GRAPHQL_UNAVAILABLE.test(text)));
  }

  /** One REST or GraphQL call with the Bearer token (OAuth access token or pasted API token). */
  private async api(token: string, path: string, body: unknown, what: string): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.send(
      `${this.endpoints.apiBaseUrl}${path}`,
      body === undefined ? { method: 'GET', headers } : { method: 'POST', headers, body: JSON.stringify(body) },
      what,
    );
    const json = parseJson(answer.text);
    if (answer.status === 200) {
      if (json === undefined) throw new CloudflareError(`${what} answered 200 with a body that is not JSON`, true);
      return json;
    }
    const message = providerMessage(answer.text);
    if (answer.status === 429) throw this.rateLimited(what, answer, message);
    if (answer.status === 401 || answer.status === 403) throw new CloudflareAuthError(`${what} refused the token (${answer.status}: ${message})`, { status: answer.status });
    const retryable = answer.status >= 500;
    throw new CloudflareError(`${what} answered ${answer.status}: ${message}`, retryable, retryable ? 'unavailable' : 'refused', { status: answer.status });
  }

  private async tokenGrant(client: CloudflareOAuthClient, grant: Record<string, string>, step: string): Promise<CloudflareTokens> {
    const form = new URLSearchParams(grant);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (client.clientSecret !== undefined && client.tokenAuthMethod === 'client_secret_basic') {
      headers.authorization = `Basic ${Buffer.from(`${formEncoded(client.clientId)}:${formEncoded(client.clientSecret)}`).toString('base64')}`;
    } else {
      form.set('client_id', client.clientId);
      if (client.clientSecret !== undefined) form.set('client_secret', client.clientSecret);
    }
    const issuedAt = this.clock.now();
    const answer = await this.send(this.endpoints.tokenUrl, { method: 'POST', headers, body: form.toString() }, TOKEN_ENDPOINT);
    const json = parseJson(answer.text);
    if (answer.status === 200) {
      const tokens = tokenAnswerSchema.safeParse(json);
      if (!tokens.success || tokens.data.token_type.toLowerCase() !== 'bearer') throw new CloudflareError(`${TOKEN_ENDPOINT} answered the ${step} with an unexpected token`);
      return {
        accessToken: tokens.data.access_token,
        refreshToken: tokens.data.refresh_token ?? null,
        expiresAt: tokens.data.expires_in === undefined ? null : issuedAt + tokens.data.expires_in * 1000,
        scopes: tokens.data.scope === undefined ? null : tokens.data.scope.split(' ').filter((scope) => scope !== ''),
      };
    }
    if (answer.status === 429) throw this.rateLimited(TOKEN_ENDPOINT, answer, undefined);
    const refusal = oauthErrorSchema.safeParse(json);
    const detail = refusal.success ? `${refusal.data.error}${refusal.data.error_description ? `: ${refusal.data.error_description}` : ''}` : `HTTP ${answer.status}`;
    // invalid_grant: the code or refresh token is used up, expired or revoked; only a new consent helps.
    if (refusal.success && refusal.data.error === 'invalid_grant') throw new CloudflareAuthError(`Cloudflare refused the ${step} (${detail})`);
    if (refusal.success && (refusal.data.error === 'invalid_client' || refusal.data.error === 'unauthorized_client')) {
      throw new CloudflareError(`Cloudflare refused the OAuth client during the ${step} (${detail}): check the client id, secret and token authentication method the service is configured with`);
    }
    throw new CloudflareError(`Cloudflare refused the ${step} (${detail})`, answer.status >= 500);
  }

  private async send(
    url: string,
    request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
    what: string,
  ): Promise<ProviderAnswer> {
    try {
      return await this.http.send({ url, ...request });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.timedOut) throw new CloudflareError(`${what} did not answer within ${this.timeoutMs / 1000} seconds`, true, 'unavailable', { timedOut: true, cause: error });
      throw new CloudflareError(`${what} did not answer: ${error.detail ?? error.message}`, true, 'unavailable', { cause: error });
    }
  }

  /** `answer`: the 429, whose wait the kit reads (Retry-After); none for a GraphQL budget spent inside a 200. */
  private rateLimited(what: string, answer: ProviderAnswer | undefined, message: string | undefined): CloudflareRateLimitError {
    const waitMs = answer === undefined ? undefined : this.http.failure(answer).retryAfterMs;
    const seconds = waitMs === undefined ? DEFAULT_RETRY_AFTER_SECONDS : Math.ceil(waitMs / 1000);
    return new CloudflareRateLimitError(`${what} is rate-limiting this service${message === undefined ? '' : ` (${message})`}: try again in ${seconds} seconds`, seconds, answer?.status ?? null);
  }
}
