import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from '../../support/localServers.js';

const HOUR_MS = 3_600_000;

export interface FakeZone {
  id: string;
  name: string;
  plan: string;
  /** Absent: the zone is listed without a status, which Cloudflare's API description allows. */
  status?: string;
}

/** The fields of a zone list's `result_info`, each optional in Cloudflare's API description. */
export type ResultInfoField = 'page' | 'per_page' | 'count' | 'total_count' | 'total_pages';

const ALL_RESULT_INFO: readonly ResultInfoField[] = ['page', 'per_page', 'count', 'total_count', 'total_pages'];

/** Requests of one user agent to one path in one hour, as Cloudflare's edge saw them. */
export interface FakeTraffic {
  /** The hour's start, epoch milliseconds. */
  hour: number;
  userAgent: string;
  path: string;
  requests: number;
  /** Cloudflare's requestSource; visitors' requests are `eyeball`. */
  source?: string;
}

/** The settings node's httpRequestsAdaptiveGroups limits (seconds, rows); a null field is one Cloudflare leaves out. */
export interface FakeLimits {
  maxDuration: number | null;
  maxPageSize: number | null;
  notOlderThan: number | null;
}

export type FakeEndpoint = 'token' | 'zones' | 'graphql';

/** A raw answer the next request to an endpoint gets, or none at all (the request hangs). */
export type FakeReply = { status: number; body: unknown; headers?: Record<string, string> } | { hang: true };

export const USER_AGENTS = {
  gptBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  claudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  perplexityBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  oaiSearchBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

/**
 * The fixed data set: every hour of [since, until), four AI crawlers, a browser and Googlebot, with counts that vary
 * by hour so that a sum over the wrong hours shows. Each hour also has a Workers subrequest carrying GPTBot's user
 * agent, which only a query without `requestSource: "eyeball"` would count.
 */
export function crawlerDataSet(since: number, until: number): FakeTraffic[] {
  const rows: FakeTraffic[] = [];
  for (let hour = since; hour < until; hour += HOUR_MS) {
    const index = hour / HOUR_MS;
    rows.push(
      { hour, userAgent: USER_AGENTS.gptBot, path: '/blog/launch', requests: 1 + (index % 3) },
      { hour, userAgent: USER_AGENTS.claudeBot, path: '/docs/setup', requests: 2 },
      { hour, userAgent: USER_AGENTS.perplexityBot, path: '/pricing', requests: 1 + (index % 2) },
      { hour, userAgent: USER_AGENTS.oaiSearchBot, path: '/', requests: 1 },
      { hour, userAgent: USER_AGENTS.chrome, path: '/blog/launch', requests: 40 },
      { hour, userAgent: USER_AGENTS.googlebot, path: '/blog/launch', requests: 5 },
      { hour, userAgent: USER_AGENTS.gptBot, path: '/blog/launch', requests: 100, source: 'edgeWorkerFetch' },
    );
  }
  return rows;
}

/** Cloudflare's REST answer to too many requests (code 971), with the Retry-After it sends. */
export function rateLimited(retryAfter?: string): FakeReply {
  return {
    status: 429,
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
    body: { success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [], result: null },
  };
}

/** GraphQL errors inside an HTTP 200, in the shape Cloudflare's analytics API answers them. */
export function graphqlErrors(...messages: string[]): FakeReply {
  return { status: 200, body: { data: null, errors: messages.map(graphqlError) } };
}

function graphqlError(message: string) {
  return { message, path: ['viewer', 'zones', '0', 'httpRequestsAdaptiveGroups'], extensions: { timestamp: new Date().toISOString() } };
}

const randomText = (prefix: string, bytes = 24) => `${prefix}${randomBytes(bytes).toString('base64url')}`;

function formDecoded(value: string): string {
  return new URLSearchParams(`v=${value}`).get('v') ?? '';
}

/**
 * Cloudflare's side of the CDN source on one local http server: the OAuth authorization endpoint (it consents at
 * once and redirects back with a code, as an owner clicking Allow would), the token endpoint (authorization_code with
 * S256 PKCE and refresh_token grants, client secret in the form or in Basic authentication, single-use codes, rotating
 * refresh tokens, OAuth error bodies), the zones API (pages of at most 50, Cloudflare's envelope, with as much of
 * `result_info` and of each zone's `status` as a test leaves in: both are optional in Cloudflare's API description) and
 * the GraphQL analytics API (the settings node, and httpRequestsAdaptiveGroups grouped by hour, user agent and path over the time
 * range asked for, enforcing the zone's limits with Cloudflare's error messages inside a 200). Any endpoint can be
 * made to answer scripted replies (429 with Retry-After, GraphQL errors, 5xx, a hang).
 */
export class FakeCloudflare {
  readonly clientId = '5f0c9a4e-sightline-test';
  readonly clientSecret = 'cf-oauth-secret-for-tests';
  readonly authRequests: URLSearchParams[] = [];
  readonly tokenRequests: Array<{ form: URLSearchParams; authorization: string | undefined }> = [];
  readonly zoneRequests: URLSearchParams[] = [];
  readonly graphqlRequests: Array<{ query: string; variables: Record<string, unknown> }> = [];
  zones: FakeZone[] = [];
  /** The result_info fields a zone list carries; null: no result_info at all. */
  resultInfo: readonly ResultInfoField[] | null = ALL_RESULT_INFO;
  traffic: FakeTraffic[] = [];
  /** Null: the settings node has no httpRequestsAdaptiveGroups entry. */
  limits: FakeLimits | null = { maxDuration: 86_400, maxPageSize: 10_000, notOlderThan: 31 * 86_400 };
  /** Cloudflare's clock, against which notOlderThan is checked. */
  now: () => number = () => Date.now();
  private readonly codes = new Map<string, { redirectUri: string; codeChallenge: string; scope: string }>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly bearers = new Set<string>();
  private readonly failures = new Map<FakeEndpoint, FakeReply[]>();
  private change: ((answer: unknown) => unknown) | undefined;
  /** Replies for a later request: the request number counted from the failAt call. */
  private readonly later = new Map<FakeEndpoint, { countdown: number; reply: FakeReply }>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeCloudflare> {
    let fake: FakeCloudflare | undefined;
    const server = createServer((req, res) => void fake!.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    fake = new FakeCloudflare(server);
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Where a client finds this fake in place of dash.cloudflare.com and api.cloudflare.com. */
  endpoints(): { authUrl: string; tokenUrl: string; apiBaseUrl: string } {
    return { authUrl: `${this.origin}/oauth2/auth`, tokenUrl: `${this.origin}/oauth2/token`, apiBaseUrl: `${this.origin}/client/v4` };
  }

  /** An API token as an owner would create and paste it (40 characters), accepted from now on. */
  issueApiToken(): string {
    const token = randomBytes(30).toString('base64url');
    this.bearers.add(token);
    return token;
  }

  /** The owner removed the app's access (or rolled the API token): no token or refresh token works any more. */
  revokeAll(): void {
    this.bearers.clear();
    this.refreshTokens.clear();
  }

  /** The next requests to this endpoint get these answers, in order. */
  fail(endpoint: FakeEndpoint, ...replies: FakeReply[]): void {
    this.failures.set(endpoint, [...(this.failures.get(endpoint) ?? []), ...replies]);
  }

  /** The nth next request to this endpoint (1: the next one) gets this answer; the ones before it are answered normally. */
  failAt(endpoint: FakeEndpoint, nth: number, reply: FakeReply): void {
    this.later.set(endpoint, { countdown: nth, reply });
  }

  /** From now on, every zone list passes through `change` first (a field added or left out, as another API version might send). */
  changeAnswers(change: (answer: unknown) => unknown): void {
    this.change = change;
  }

  reset(): void {
    this.authRequests.length = 0;
    this.tokenRequests.length = 0;
    this.zoneRequests.length = 0;
    this.graphqlRequests.length = 0;
    this.failures.clear();
    this.later.clear();
    this.change = undefined;
    this.resultInfo = ALL_RESULT_INFO;
    this.limits = { maxDuration: 86_400, maxPageSize: 10_000, notOlderThan: 31 * 86_400 };
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'GET' && url.pathname === '/oauth2/auth') return this.authorize(url.searchParams, res);
    if (req.method === 'POST' && url.pathname === '/oauth2/token') return this.token(new URLSearchParams(raw), req.headers.authorization, res);
    if (req.method === 'GET' && url.pathname === '/client/v4/zones') return this.listZones(url.searchParams, req.headers.authorization, res);
    if (req.method === 'POST' && url.pathname === '/client/v4/graphql') return this.graphql(raw, req.headers.authorization, res);
    json(res, 404, { success: false, errors: [{ code: 7000, message: 'No route for that URI' }], messages: [], result: null });
  }

  /** True when a scripted reply was sent (or withheld, for a hang). */
  private scripted(endpoint: FakeEndpoint, res: ServerResponse): boolean {
    const later = this.later.get(endpoint);
    if (later !== undefined && --later.countdown === 0) {
      this.later.delete(endpoint);
      this.failures.set(endpoint, [later.reply, ...(this.failures.get(endpoint) ?? [])]);
    }
    const reply = this.failures.get(endpoint)?.shift();
    if (reply === undefined) return false;
    if (!('hang' in reply)) json(res, reply.status, reply.body, reply.headers);
    return true;
  }

  private bearerOk(authorization: string | undefined): boolean {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    return bearer !== undefined && this.bearers.has(bearer);
  }

  private authorize(params: URLSearchParams, res: ServerResponse): void {
    this.authRequests.push(params);
    const redirectUri = params.get('redirect_uri');
    const codeChallenge = params.get('code_challenge') ?? '';
    const scope = params.get('scope') ?? '';
    if (
      params.get('client_id') !== this.clientId ||
      redirectUri === null ||
      params.get('response_type') !== 'code' ||
      params.get('code_challenge_method') !== 'S256' ||
      !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge) ||
      scope === ''
    ) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<p>The request is missing a required parameter.</p>');
      return;
    }
    const code = randomText('ory_ac_');
    this.codes.set(code, { redirectUri, codeChallenge, scope });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('scope', scope);
    back.searchParams.set('state', params.get('state') ?? '');
    res.writeHead(302, { location: back.href }).end();
  }

  /** The client's id when it authenticated with its secret in exactly one of the two places; undefined otherwise. */
  private authenticatedClient(form: URLSearchParams, authorization: string | undefined): string | undefined {
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    if (basic !== undefined) {
      if (form.has('client_secret')) return undefined;
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(formDecoded);
      return secret === this.clientSecret ? id : undefined;
    }
    return form.get('client_secret') === this.clientSecret ? (form.get('client_id') ?? undefined) : undefined;
  }

  private token(form: URLSearchParams, authorization: string | undefined, res: ServerResponse): void {
    this.tokenRequests.push({ form, authorization });
    if (this.scripted('token', res)) return;
    if (this.authenticatedClient(form, authorization) !== this.clientId) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).' });
    }
    const invalidGrant = () =>
      json(res, 400, {
        error: 'invalid_grant',
        error_description: 'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      });
    let scope: string;
    if (form.get('grant_type') === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (code === undefined || code.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
        return invalidGrant();
      }
      scope = code.scope;
    } else if (form.get('grant_type') === 'refresh_token') {
      const granted = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (granted === undefined) return invalidGrant();
      // Rotation: a refresh token works once.
      this.refreshTokens.delete(form.get('refresh_token') ?? '');
      scope = granted;
    } else {
      return json(res, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' });
    }
    const accessToken = randomText('ory_at_');
    const refreshToken = randomText('ory_rt_');
    this.bearers.add(accessToken);
    this.refreshTokens.set(refreshToken, scope);
    json(res, 200, { access_token: accessToken, expires_in: 3599, refresh_token: refreshToken, scope, token_type: 'bearer' });
  }

  private listZones(query: URLSearchParams, authorization: string | undefined, res: ServerResponse): void {
    this.zoneRequests.push(query);
    if (this.scripted('zones', res)) return;
    if (!this.bearerOk(authorization)) return json(res, 401, { success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [], result: null });
    const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
    const perPage = Math.min(50, Math.max(5, Number(query.get('per_page') ?? 20) || 20));
    const result = this.zones.slice((page - 1) * perPage, page * perPage).map((zone) => ({
      id: zone.id,
      name: zone.name,
      ...(zone.status === undefined ? {} : { status: zone.status }),
      paused: false,
      type: 'full',
      plan: { id: randomBytes(16).toString('hex'), name: zone.plan, price: 0, currency: 'USD', is_subscribed: true },
      account: { id: 'a1b2c3', name: "Owner's account" },
    }));
    const info = { page, per_page: perPage, count: result.length, total_count: this.zones.length, total_pages: Math.max(1, Math.ceil(this.zones.length / perPage)) };
    const resultInfo = this.resultInfo === null ? {} : { result_info: Object.fromEntries(this.resultInfo.map((field) => [field, info[field]])) };
    const answer = { success: true, errors: [], messages: [], result, ...resultInfo };
    json(res, 200, this.change === undefined ? answer : this.change(answer));
  }

  private graphql(raw: string, authorization: string | undefined, res: ServerResponse): void {
    const body = JSON.parse(raw || '{}') as { query?: unknown; variables?: Record<string, unknown> };
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = body.variables ?? {};
    this.graphqlRequests.push({ query, variables });
    if (this.scripted('graphql', res)) return;
    if (!this.bearerOk(authorization)) return json(res, 401, { data: null, errors: [graphqlError('Unauthorized')] });
    const zoneTag = variables.zoneTag;
    if (typeof zoneTag !== 'string' || !this.zones.some((zone) => zone.id === zoneTag)) {
      return json(res, 200, { data: null, errors: [graphqlError(`zones [${String(zoneTag)}] are not authorized`)] });
    }
    if (/\bsettings\s*\{/.test(query)) {
      return json(res, 200, { data: { viewer: { zones: [{ settings: { httpRequestsAdaptiveGroups: this.limits } }] } }, errors: null });
    }
    if (!/httpRequestsAdaptiveGroups\s*\(/.test(query)) return json(res, 200, { data: null, errors: [graphqlError('unknown field')] });
    const answer = this.adaptiveGroups(query, variables.filter);
    if (typeof answer === 'string') return json(res, 200, { data: null, errors: [graphqlError(answer)] });
    json(res, 200, { data: { viewer: { zones: [{ httpRequestsAdaptiveGroups: answer }] } }, errors: null });
  }

  /** The groups a query asks for, or Cloudflare's message refusing it. */
  private adaptiveGroups(query: string, filter: unknown): string | unknown[] {
    const maxPageSize = this.limits?.maxPageSize ?? 10_000;
    const limit = Number(/httpRequestsAdaptiveGroups\s*\([^)]*\blimit:\s*(\d+)/.exec(query)?.[1]);
    if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) return `limit must be positive number and not greater than ${maxPageSize}`;
    if (typeof filter !== 'object' || filter === null) return 'error parsing args: filter is required';
    const { datetime_geq: geq, datetime_lt: lt, requestSource } = filter as Record<string, unknown>;
    const since = typeof geq === 'string' ? Date.parse(geq) : NaN;
    const until = typeof lt === 'string' ? Date.parse(lt) : NaN;
    if (Number.isNaN(since) || Number.isNaN(until)) return 'error parsing args: datetime_geq and datetime_lt must be Time values';
    const maxDuration = this.limits?.maxDuration ?? 86_400;
    if (until - since > maxDuration * 1000) return `query time range is too large, maximum is ${maxDuration}s`;
    const notOlderThan = this.limits?.notOlderThan ?? 31 * 86_400;
    if (since < this.now() - notOlderThan * 1000) return `cannot request data older than ${notOlderThan}s`;
    const groups = new Map<string, { hour: number; userAgent: string; path: string; count: number }>();
    for (const row of this.traffic) {
      if (row.hour < since || row.hour >= until) continue;
      if (requestSource !== undefined && (row.source ?? 'eyeball') !== requestSource) continue;
      const key = `${row.hour}\n${row.userAgent}\n${row.path}`;
      const group = groups.get(key) ?? { hour: row.hour, userAgent: row.userAgent, path: row.path, count: 0 };
      group.count += row.requests;
      groups.set(key, group);
    }
    return [...groups.values()]
      .sort((a, b) => a.hour - b.hour || b.count - a.count || a.userAgent.localeCompare(b.userAgent) || a.path.localeCompare(b.path))
      .slice(0, limit)
      .map((group) => ({
        count: group.count,
        dimensions: { datetimeHour: new Date(group.hour).toISOString().replace(/\.\d{3}Z$/, 'Z'), userAgent: group.userAgent, clientRequestPath: group.path },
      }));
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
