import { randomBytes } from 'node:crypto';
import { countsOf, groupBy, type Pageview, pageviewsIn, referredFrom } from './siteVisits.js';
import { FakeAnalyticsServer, json, type ReceivedCall, type Reply } from './analyticsServer.js';

/**
 * How the fake answers: Umami 2 sends stats as `{value, prev}` objects, lists pages with `type=url` and writes errors
 * as text; Umami 3 sends plain numbers (and a comparison), lists pages with `type=path` and writes JSON errors.
 */
export type UmamiVersion = 2 | 3;

const DATA_PATH = /^\/(?:api|v1)\/websites\/([^/]+)\/(stats|metrics|pageviews)$/;

/**
 * A local Umami: self-hosted (POST /api/auth/login for a bearer token, data under /api) or Umami Cloud (an
 * x-umami-api-key header, data under /v1). /websites/{id}/stats, /metrics?type=referrer|url|path with limit and offset
 * (distinct sessions per value, most first; referrers without the empty and the site's own) and
 * /pageviews?unit=day (pageviews and sessions per day that had any), all over startAt..endAt in epoch milliseconds.
 */
export class FakeUmami extends FakeAnalyticsServer {
  readonly username = 'admin';
  readonly password = 'umami-owner-password';
  readonly apiKey = 'api_umami_cloud_7Qm2';
  readonly websiteId = '4f7c1a52-9d1e-4c3b-8a61-2b9e07d5c1aa';
  version: UmamiVersion = 3;
  private readonly tokens = new Set<string>();

  private constructor(readonly mode: 'self-hosted' | 'cloud') {
    super();
  }

  static async start(mode: 'self-hosted' | 'cloud'): Promise<FakeUmami> {
    const fake = new FakeUmami(mode);
    await fake.listen();
    return fake;
  }

  /** The base URL the adapter is given: the server's root when self-hosted, the API's /v1 for the cloud. */
  get baseUrl(): string {
    return this.mode === 'cloud' ? `${this.origin}/v1` : this.origin;
  }

  /** Umami restarted (or the tokens expired): every token handed out so far is refused. */
  expireTokens(): void {
    this.tokens.clear();
  }

  logins(): ReceivedCall[] {
    return this.calls.filter((call) => call.path === '/api/auth/login');
  }

  override reset(): void {
    super.reset();
    this.version = 3;
  }

  protected isDataCall(call: ReceivedCall): boolean {
    return call.method === 'GET' && DATA_PATH.test(call.path);
  }

  protected answer(call: ReceivedCall): Reply {
    if (this.mode === 'self-hosted' && call.method === 'POST' && call.path === '/api/auth/login') return this.login(call.body);
    const match = DATA_PATH.exec(call.path);
    if (!this.isDataCall(call) || match === null || call.path.startsWith(this.mode === 'cloud' ? '/api/' : '/v1/')) return this.error(404, 'Not found');
    if (!this.authorized(call)) return this.error(401, 'Unauthorized');
    if (match[1] !== this.websiteId) return this.error(401, 'Unauthorized');
    const startAt = Number(call.query.get('startAt'));
    const endAt = Number(call.query.get('endAt'));
    if (!Number.isInteger(startAt) || !Number.isInteger(endAt) || call.query.get('startAt') === null) return this.error(400, 'Bad request');
    const views = pageviewsIn(this.visits, new Date(startAt).toISOString().slice(0, 10), new Date(endAt).toISOString().slice(0, 10));
    if (match[2] === 'stats') return this.stats(views);
    if (match[2] === 'metrics') return this.metrics(views, call.query);
    return this.pageviews(views, call.query);
  }

  private login(body: unknown): Reply {
    const { username, password } = (body ?? {}) as { username?: unknown; password?: unknown };
    if (username !== this.username || password !== this.password) return this.error(401, 'Incorrect username and/or password.');
    const token = randomBytes(24).toString('base64url');
    this.tokens.add(token);
    return json(200, { token, user: { id: '41e2b680-648e-4b09-bcd7-3e2b10c06264', username: this.username, role: 'admin', createdAt: '2026-01-05T10:00:00.000Z', isAdmin: true } });
  }

  private authorized(call: ReceivedCall): boolean {
    if (this.mode === 'cloud') return call.headers['x-umami-api-key'] === this.apiKey;
    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? '')?.[1];
    return bearer !== undefined && this.tokens.has(bearer);
  }

  private error(status: number, message: string): Reply {
    return this.version === 2 ? { status, body: message } : json(status, { error: { message, code: status === 401 ? 'unauthorized' : 'bad-request', status } });
  }

  private stats(views: Pageview[]): Reply {
    const counts = countsOf(views);
    const perVisit = groupBy(views, (view) => String(view.visitIndex));
    const bounces = [...perVisit.values()].filter((visit) => visit.length === 1).length;
    const figures = { pageviews: counts.pageviews, visitors: counts.visitors, visits: counts.visits, bounces, totaltime: counts.visits * 95 };
    if (this.version === 3) return json(200, { ...figures, comparison: { pageviews: 0, visitors: 0, visits: 0, bounces: 0, totaltime: 0 } });
    return json(200, Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, { value, prev: 0 }])));
  }

  private metrics(views: Pageview[], query: URLSearchParams): Reply {
    const type = query.get('type');
    const pages = this.version === 3 ? 'path' : 'url';
    if (type !== 'referrer' && type !== pages) return this.error(400, 'Bad request');
    const groups =
      type === 'referrer'
        ? groupBy(
            views.filter((view) => referredFrom(view.visit) !== undefined),
            (view) => referredFrom(view.visit)!,
          )
        : groupBy(views, (view) => view.page);
    const rows = [...groups]
      .map(([x, group]) => ({ x, y: countsOf(group).visitors }))
      .sort((a, b) => b.y - a.y || a.x.localeCompare(b.x));
    const limit = Number(query.get('limit') ?? 500);
    const offset = Number(query.get('offset') ?? 0);
    return json(200, rows.slice(offset, offset + limit));
  }

  private pageviews(views: Pageview[], query: URLSearchParams): Reply {
    if (query.get('unit') !== 'day') return this.error(400, 'Bad request');
    const byDay = [...groupBy(views, (view) => view.visit.date)].sort(([a], [b]) => a.localeCompare(b));
    const x = (date: string) => (this.version === 3 ? `${date}T00:00:00Z` : `${date} 00:00:00`);
    return json(200, {
      pageviews: byDay.map(([date, group]) => ({ x: x(date), y: countsOf(group).pageviews })),
      sessions: byDay.map(([date, group]) => ({ x: x(date), y: countsOf(group).visitors })),
    });
  }
}
