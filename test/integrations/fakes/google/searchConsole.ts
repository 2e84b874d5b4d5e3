import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { closeServer, readBody, startHttpsServer } from '../../../support/localServers.js';
import { GoogleAccountsOAuth, type Consent } from './oauth.js';

const SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';

export interface FakeSite {
  siteUrl: string;
  /**
   * As the API reference spells the levels, or as the searchconsole v1 discovery document enumerates them: Google's
   * answers may use either.
   */
  permissionLevel:
    | 'siteOwner'
    | 'siteFullUser'
    | 'siteRestrictedUser'
    | 'siteUnverifiedUser'
    | 'SITE_OWNER'
    | 'SITE_FULL_USER'
    | 'SITE_RESTRICTED_USER'
    | 'SITE_UNVERIFIED_USER';
}

/** The dimensions this fake groups by, in either of Google's spellings (`query` or `QUERY`). */
const DIMENSIONS: Readonly<Record<string, 'query' | 'page'>> = { query: 'query', QUERY: 'query', page: 'page', PAGE: 'page' };

const unverified = (site: FakeSite) => site.permissionLevel === 'siteUnverifiedUser' || site.permissionLevel === 'SITE_UNVERIFIED_USER';

/** One day of a query on a page, as Search Console records it. */
export interface FakeRow {
  /** The day, YYYY-MM-DD (UTC, as the service asks). */
  date: string;
  query: string;
  page: string;
  clicks: number;
  impressions: number;
  position: number;
}

interface Reply {
  status: number;
  body: unknown;
}

type Endpoint = 'token' | 'sites' | 'searchAnalytics';

export interface ApiRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/**
 * Google's side of Search Console on one local https server: the authorization and token endpoints
 * (`GoogleAccountsOAuth`, its 400 page as HTML) and the Search Console API (sites.list, searchAnalytics.query by query
 * and page in either spelling of the dimensions, summing the days of the date range asked for, with startRow paging,
 * Google's JSON errors).
 */
export class FakeGoogle {
  readonly clientId = '123456789-sightline.apps.googleusercontent.com';
  readonly clientSecret = 'GOCSPX-test-secret';
  readonly authRequests: URLSearchParams[] = [];
  readonly tokenRequests: URLSearchParams[] = [];
  readonly apiRequests: ApiRequest[] = [];
  /** The properties the account can see. */
  sites: FakeSite[] = [];
  /** Search Analytics rows per property, one per query, page and day; a query sums those of its date range. */
  readonly rows = new Map<string, FakeRow[]>();
  private readonly oauth = new GoogleAccountsOAuth({ clientId: this.clientId, clientSecret: this.clientSecret, scope: SCOPE });
  private readonly failures = new Map<Endpoint, Reply[]>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeGoogle> {
    let fake: FakeGoogle | undefined;
    const { server, port } = await startHttpsServer((req, res) => void fake!.handle(req, res));
    fake = new FakeGoogle(server, `https://127.0.0.1:${port}`);
    return fake;
  }

  /** The GSC_* settings that point the service here. */
  env(): Record<string, string> {
    return {
      GSC_CLIENT_ID: this.clientId,
      GSC_CLIENT_SECRET: this.clientSecret,
      GSC_AUTH_URL: `${this.origin}/o/oauth2/v2/auth`,
      GSC_TOKEN_URL: `${this.origin}/token`,
      GSC_API_BASE_URL: this.origin,
    };
  }

  /** What the account on the consent screen does. */
  get consent(): Consent {
    return this.oauth.consent;
  }

  set consent(consent: Consent) {
    this.oauth.consent = consent;
  }

  /** The next requests to this endpoint get these answers, in order. */
  fail(endpoint: Endpoint, ...replies: Reply[]): void {
    this.failures.set(endpoint, [...(this.failures.get(endpoint) ?? []), ...replies]);
  }

  /** The user removed the app's access in their Google account: every refresh token stops working. */
  revokeAll(): void {
    this.oauth.revokeAll();
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') return this.authorize(url.searchParams, res);
    if (req.method === 'POST' && url.pathname === '/token') return this.token(new URLSearchParams(raw), res);
    if (url.pathname.startsWith('/webmasters/v3/')) return this.api(req, url, raw, res);
    json(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
  }

  private authorize(params: URLSearchParams, res: ServerResponse): void {
    this.authRequests.push(params);
    const answer = this.oauth.authorize(params);
    if (answer.status === 400) res.writeHead(400, { 'content-type': 'text/html' }).end(`<p>Error 400: ${answer.error}</p>`);
    else res.writeHead(302, { location: answer.location }).end();
  }

  private token(form: URLSearchParams, res: ServerResponse): void {
    this.tokenRequests.push(form);
    const answer = this.failures.get('token')?.shift() ?? this.oauth.token(form);
    json(res, answer.status, answer.body);
  }

  private api(req: IncomingMessage, url: URL, raw: string, res: ServerResponse): void {
    const body = raw === '' ? undefined : (JSON.parse(raw) as Record<string, unknown>);
    this.apiRequests.push({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization, body });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!this.oauth.hasAccessToken(bearer)) {
      return json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.', status: 'UNAUTHENTICATED' } });
    }
    if (req.method === 'GET' && url.pathname === '/webmasters/v3/sites') {
      const failure = this.failures.get('sites')?.shift();
      if (failure !== undefined) return json(res, failure.status, failure.body);
      return json(res, 200, this.sites.length === 0 ? {} : { siteEntry: this.sites });
    }
    const property = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(url.pathname)?.[1];
    if (req.method !== 'POST' || property === undefined || body === undefined) return json(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    const failure = this.failures.get('searchAnalytics')?.shift();
    if (failure !== undefined) return json(res, failure.status, failure.body);
    const siteUrl = decodeURIComponent(property);
    if (!this.sites.some((site) => site.siteUrl === siteUrl && !unverified(site))) {
      return json(res, 403, {
        error: { code: 403, message: `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`, status: 'PERMISSION_DENIED' },
      });
    }
    const { startDate, endDate } = body;
    if (typeof startDate !== 'string' || typeof endDate !== 'string') {
      return json(res, 400, { error: { code: 400, message: 'Missing required field: startDate or endDate.', status: 'INVALID_ARGUMENT' } });
    }
    const requested = Array.isArray(body.dimensions) ? (body.dimensions as unknown[]) : [];
    const dimensions = requested.map((name) => DIMENSIONS[String(name)]);
    const unknown = dimensions.findIndex((dimension) => dimension === undefined);
    if (unknown >= 0) {
      return json(res, 400, { error: { code: 400, message: `Invalid value at 'dimensions[${unknown}]' (TYPE_ENUM), "${String(requested[unknown])}"`, status: 'INVALID_ARGUMENT' } });
    }
    if (dimensions.length !== 2 || new Set(dimensions).size !== 2) {
      return json(res, 400, { error: { code: 400, message: 'This fake groups by query and page, nothing else.', status: 'INVALID_ARGUMENT' } });
    }
    const startRow = Number(body.startRow ?? 0);
    const rowLimit = Number(body.rowLimit ?? 1000);
    const rows = overRange(this.rows.get(siteUrl) ?? [], startDate, endDate)
      .slice(startRow, startRow + rowLimit)
      .map((row) => ({
        // Keys in the order the dimensions were asked for, as Google groups them.
        keys: dimensions.map((dimension) => row[dimension!]),
        clicks: row.clicks,
        impressions: row.impressions,
        ctr: row.impressions === 0 ? 0 : row.clicks / row.impressions,
        position: row.impressions === 0 ? 0 : row.weightedPosition / row.impressions,
      }));
    json(res, 200, rows.length === 0 ? { responseAggregationType: 'byPage' } : { rows, responseAggregationType: 'byPage' });
  }
}

interface RangeRow {
  query: string;
  page: string;
  clicks: number;
  impressions: number;
  weightedPosition: number;
}

/**
 * What Google answers for a date range (both ends included): the days' figures summed per query and page, the
 * position averaged over impressions, most clicks first (ties in the order the days were given).
 */
function overRange(days: readonly FakeRow[], startDate: string, endDate: string): RangeRow[] {
  const byQueryAndPage = new Map<string, RangeRow>();
  for (const day of days) {
    if (day.date < startDate || day.date > endDate) continue;
    const key = `${day.query}\n${day.page}`;
    const sum = byQueryAndPage.get(key) ?? { query: day.query, page: day.page, clicks: 0, impressions: 0, weightedPosition: 0 };
    sum.clicks += day.clicks;
    sum.impressions += day.impressions;
    sum.weightedPosition += day.position * day.impressions;
    byQueryAndPage.set(key, sum);
  }
  return [...byQueryAndPage.values()].sort((a, b) => b.clicks - a.clicks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}
