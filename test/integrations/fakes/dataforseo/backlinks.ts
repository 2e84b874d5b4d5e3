import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { DATAFORSEO_OK, dataForSeoEnvelope, dataForSeoTask, sendJson } from './envelope.js';
import { closeServer, readBody, startHttpsServer } from '../../../support/localServers.js';

/** A backlink the fake index holds for a target, in words; the fake answers it in DataForSEO's item format. */
export interface FakeBacklink {
  urlFrom: string;
  urlTo: string;
  anchor?: string | null;
  dofollow?: boolean;
  domainFromRank?: number;
  /** "2024-03-01 10:00:00 +00:00" */
  firstSeen?: string;
  lastSeen?: string;
  isLost?: boolean;
  isBroken?: boolean;
  itemType?: 'anchor' | 'image' | 'canonical';
}

export interface FakeReferringDomain {
  domain: string;
  backlinks: number;
  rank: number;
}

export interface FakeSummary {
  backlinks: number;
  referringDomains: number;
  referringMainDomains?: number;
  nofollow?: number;
  broken?: number;
}

export type Endpoint = 'backlinks' | 'summary' | 'referring_domains';

/** A one-off answer instead of the data: an error the way DataForSEO sends it. */
export type FailureScript =
  /** A task-level error inside an HTTP 200. */
  | { taskError: { code: number; message: string } }
  /** A request-level error (e.g. 40202, the per-minute rate limit) inside an HTTP 200. */
  | { requestError: { code: number; message: string } }
  | { http: { status: number; body: string; headers?: Record<string, string> } }
  /** No answer at all: the request waits until the client gives up. */
  | { hang: true };

export interface BacklinksRequest {
  endpoint: Endpoint;
  authorization: string | undefined;
  task: Record<string, unknown>;
}

const OK = DATAFORSEO_OK;
const PATHS: Record<string, Endpoint> = {
  '/v3/backlinks/backlinks/live': 'backlinks',
  '/v3/backlinks/summary/live': 'summary',
  '/v3/backlinks/referring_domains/live': 'referring_domains',
};
const STATUS_TYPES = ['all', 'live', 'lost'];

/**
 * A local DataForSEO v3 Backlinks API (https, the test CA): `backlinks/live`, `summary/live` and
 * `referring_domains/live`, one task per request, HTTP Basic auth (401 otherwise), the status_code envelope, `limit`
 * checked (at most 1000), `backlinks_status_type` (live by default, lost, all), `order_by` on `domain_from_rank` and
 * `rank`, and deep paging the way DataForSEO does it: each page carries a fresh `search_after_token`, valid once, for
 * a request otherwise identical to the one that got it (limit and offset included); `offset` up to 20,000.
 */
export class FakeDataForSeoBacklinks {
  readonly login = 'links@example.com';
  readonly password = 'dfs-backlinks-secret';
  readonly requests: BacklinksRequest[] = [];
  private readonly links = new Map<string, FakeBacklink[]>();
  private readonly summaries = new Map<string, FakeSummary>();
  private readonly referring = new Map<string, FakeReferringDomain[]>();
  private readonly failures = new Map<Endpoint, FailureScript[]>();
  /** Token → the request it continues (without the token) and where the next page starts. */
  private readonly tokens = new Map<string, { request: string; offset: number }>();
  private change: ((answer: unknown) => unknown) | undefined;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeDataForSeoBacklinks> {
    let fake: FakeDataForSeoBacklinks | undefined;
    const { server, port } = await startHttpsServer((req, res) => void fake!.handle(req, res));
    fake = new FakeDataForSeoBacklinks(server, `https://127.0.0.1:${port}`);
    return fake;
  }

  /** BACKLINKS_* settings pointing here. */
  env(): Record<string, string> {
    return { BACKLINKS_BASE_URL: this.baseUrl, BACKLINKS_LOGIN: this.login, BACKLINKS_PASSWORD: this.password };
  }

  /** The SERP_* settings pointing here (the backlink index then uses the SERP provider's account). */
  serpEnv(): Record<string, string> {
    return { SERP_BASE_URL: this.baseUrl, SERP_LOGIN: this.login, SERP_PASSWORD: this.password };
  }

  setBacklinks(target: string, links: FakeBacklink[]): void {
    this.links.set(target, links);
  }

  setSummary(target: string, summary: FakeSummary): void {
    this.summaries.set(target, summary);
  }

  setReferringDomains(target: string, domains: FakeReferringDomain[]): void {
    this.referring.set(target, domains);
  }

  /** The next requests to the endpoint get these answers, in order, before the data is answered again. */
  failNext(endpoint: Endpoint, ...scripts: FailureScript[]): void {
    this.failures.set(endpoint, [...(this.failures.get(endpoint) ?? []), ...scripts]);
  }

  /** From now on, every answer with data passes through `change` first (a field added or left out, as another API version might send). */
  changeAnswers(change: (answer: unknown) => unknown): void {
    this.change = change;
  }

  requestsTo(endpoint: Endpoint): BacklinksRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  reset(): void {
    this.requests.length = 0;
    this.links.clear();
    this.summaries.clear();
    this.referring.clear();
    this.failures.clear();
    this.tokens.clear();
    this.change = undefined;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const endpoint = PATHS[req.url ?? ''];
    if (req.method !== 'POST' || endpoint === undefined) return sendJson(res, 404, envelope(40400, 'Not Found.', []));
    let tasks: unknown;
    try {
      tasks = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(res, 200, envelope(40503, 'POST Data Is Invalid.', []));
    }
    if (!Array.isArray(tasks) || tasks.length !== 1 || typeof tasks[0] !== 'object' || tasks[0] === null) {
      return sendJson(res, 200, envelope(40000, 'You can set only one task at a time.', []));
    }
    const task = tasks[0] as Record<string, unknown>;
    this.requests.push({ endpoint, authorization: req.headers.authorization, task });
    if (req.headers.authorization !== `Basic ${Buffer.from(`${this.login}:${this.password}`).toString('base64')}`) {
      return sendJson(res, 401, envelope(40100, 'You are not authorized to access this resource.', []));
    }
    const failure = this.failures.get(endpoint)?.shift();
    if (failure !== undefined) {
      if ('hang' in failure) return;
      if ('http' in failure) {
        res.writeHead(failure.http.status, { 'content-type': 'application/json', ...failure.http.headers }).end(failure.http.body);
        return;
      }
      if ('requestError' in failure) return sendJson(res, 200, envelope(failure.requestError.code, failure.requestError.message, []));
      return sendJson(res, 200, envelope(OK, 'Ok.', [taskEnvelope(endpoint, task, failure.taskError.code, failure.taskError.message, null)]));
    }
    const invalid = invalidField(endpoint, task);
    if (invalid !== undefined) return sendJson(res, 200, envelope(OK, 'Ok.', [taskEnvelope(endpoint, task, 40501, `Invalid Field: '${invalid}'.`, null)]));
    const target = String(task.target);
    const answer = (result: unknown) => sendJson(res, 200, this.changed(envelope(OK, 'Ok.', [taskEnvelope(endpoint, task, OK, 'Ok.', [result])])));
    if (endpoint === 'summary') return answer(this.summaryResult(target));
    if (endpoint === 'referring_domains') return answer(this.referringResult(target, task));
    const page = this.backlinksResult(target, task);
    if (page === undefined) return sendJson(res, 200, envelope(OK, 'Ok.', [taskEnvelope(endpoint, task, 40501, "Invalid Field: 'search_after_token'.", null)]));
    answer(page);
  }

  private changed(answer: unknown): unknown {
    return this.change === undefined ? answer : this.change(answer);
  }

  private summaryResult(target: string) {
    const summary = this.summaries.get(target) ?? { backlinks: 0, referringDomains: 0 };
    return {
      target,
      first_seen: '2019-01-15 22:56:21 +00:00',
      lost_date: null,
      rank: 312,
      backlinks: summary.backlinks,
      backlinks_spam_score: 4,
      crawled_pages: 1840,
      info: { server: 'nginx', cms: null, platform_type: ['unknown'], ip_address: '203.0.113.7', country: 'US', is_ip: false, target_spam_score: 1 },
      internal_links_count: 5210,
      external_links_count: 804,
      broken_backlinks: summary.broken ?? 0,
      broken_pages: 3,
      referring_domains: summary.referringDomains,
      referring_domains_nofollow: 7,
      referring_main_domains: summary.referringMainDomains ?? summary.referringDomains,
      referring_main_domains_nofollow: 6,
      referring_ips: 120,
      referring_subnets: 98,
      referring_pages: 400,
      referring_pages_nofollow: 31,
      referring_links_tld: { com: 300, org: 50 },
      referring_links_types: { anchor: 380, image: 20 },
      referring_links_attributes: { nofollow: summary.nofollow ?? 0 },
      referring_links_platform_types: { cms: 120, blogs: 80, unknown: 200 },
      referring_links_semantic_locations: { article: 200, '': 150 },
      referring_links_countries: { US: 250, DE: 40 },
      backlinks_nofollow: summary.nofollow ?? 0,
    };
  }

  private referringResult(target: string, task: Record<string, unknown>) {
    const limit = Number(task.limit ?? 100);
    const all = [...(this.referring.get(target) ?? [])];
    if (JSON.stringify(task.order_by) === JSON.stringify(['rank,desc'])) all.sort((a, b) => b.rank - a.rank);
    const items = all.slice(0, limit).map((d) => ({
      type: 'backlinks_referring_domain',
      domain: d.domain,
      rank: d.rank,
      backlinks: d.backlinks,
      first_seen: '2021-06-02 08:11:09 +00:00',
      lost_date: null,
      backlinks_spam_score: 2,
      broken_backlinks: 0,
      broken_pages: 0,
      referring_domains: 3,
      referring_domains_nofollow: 0,
      referring_main_domains: 3,
      referring_main_domains_nofollow: 0,
      referring_ips: 3,
      referring_subnets: 3,
      referring_pages: d.backlinks,
      referring_pages_nofollow: 0,
      referring_links_tld: { com: d.backlinks },
      referring_links_types: { anchor: d.backlinks },
      referring_links_attributes: null,
      referring_links_platform_types: { cms: d.backlinks },
      referring_links_semantic_locations: { article: d.backlinks },
      referring_links_countries: { US: d.backlinks },
    }));
    return { target, total_count: all.length, items_count: items.length, items };
  }

  /** One page; undefined when the token is unknown, used up, or came with a different request. */
  private backlinksResult(target: string, task: Record<string, unknown>) {
    const { search_after_token: token, ...request } = task;
    const key = JSON.stringify(request);
    // Without a token a request may start anywhere up to DataForSEO's offset limit.
    let offset = Number(task.offset ?? 0);
    if (token !== undefined) {
      const continued = this.tokens.get(String(token));
      if (continued === undefined || continued.request !== key) return undefined;
      this.tokens.delete(String(token));
      offset = continued.offset;
    }
    const statusType = String(task.backlinks_status_type ?? 'live');
    const all = (this.links.get(target) ?? []).filter((link) => statusType === 'all' || (statusType === 'lost') === (link.isLost === true));
    if (JSON.stringify(task.order_by) === JSON.stringify(['domain_from_rank,desc'])) all.sort((a, b) => (b.domainFromRank ?? 0) - (a.domainFromRank ?? 0));
    const limit = Number(task.limit ?? 100);
    const items = all.slice(offset, offset + limit).map(backlinkItem);
    const next = `${randomBytes(9).toString('base64url')}`;
    this.tokens.set(next, { request: key, offset: offset + items.length });
    return {
      target,
      mode: task.mode ?? 'as_is',
      custom_mode: null,
      total_count: all.length,
      items_count: items.length,
      items,
      search_after_token: next,
    };
  }
}

function invalidField(endpoint: Endpoint, task: Record<string, unknown>): string | undefined {
  // A domain goes without scheme and www.; a page with its absolute URL.
  const target = task.target;
  if (typeof target !== 'string' || target === '' || target.startsWith('www.') || (!/^https?:\/\//.test(target) && target.includes('/'))) return 'target';
  if (task.limit !== undefined && (!Number.isInteger(task.limit) || (task.limit as number) < 1 || (task.limit as number) > 1000)) return 'limit';
  if (endpoint === 'backlinks' && task.offset !== undefined && (!Number.isInteger(task.offset) || (task.offset as number) < 0 || (task.offset as number) > 20_000)) return 'offset';
  if (task.backlinks_status_type !== undefined && !STATUS_TYPES.includes(String(task.backlinks_status_type))) return 'backlinks_status_type';
  if (endpoint === 'backlinks' && task.mode !== undefined && !['as_is', 'one_per_domain', 'one_per_anchor'].includes(String(task.mode))) return 'mode';
  return undefined;
}

function backlinkItem(link: FakeBacklink) {
  const from = new URL(link.urlFrom);
  const to = new URL(link.urlTo);
  const lost = link.isLost === true;
  return {
    type: 'backlink',
    domain_from: from.hostname,
    url_from: link.urlFrom,
    url_from_https: from.protocol === 'https:',
    domain_to: to.hostname,
    url_to: link.urlTo,
    url_to_https: to.protocol === 'https:',
    tld_from: from.hostname.split('.').at(-1),
    is_new: false,
    is_lost: lost,
    backlink_spam_score: 3,
    rank: 12,
    page_from_rank: 40,
    domain_from_rank: link.domainFromRank ?? null,
    domain_from_platform_type: ['cms', 'blogs'],
    domain_from_is_ip: false,
    domain_from_ip: '198.51.100.23',
    domain_from_country: 'US',
    page_from_external_links: 14,
    page_from_internal_links: 61,
    page_from_size: 63357,
    page_from_encoding: 'utf-8',
    page_from_language: 'en',
    page_from_title: 'A page that links',
    page_from_status_code: lost ? 404 : 200,
    first_seen: link.firstSeen ?? '2024-01-10 07:30:00 +00:00',
    prev_seen: '2026-10-01 00:00:00 +00:00',
    last_seen: link.lastSeen ?? '2026-11-01 00:00:00 +00:00',
    item_type: link.itemType ?? 'anchor',
    attributes: link.dofollow === false ? ['nofollow'] : null,
    dofollow: link.dofollow ?? true,
    original: true,
    alt: link.itemType === 'image' ? 'Acme logo' : null,
    image_url: link.itemType === 'image' ? 'https://cdn.example/logo.png' : null,
    anchor: link.itemType === 'image' ? null : (link.anchor ?? 'Acme'),
    text_pre: 'see',
    text_post: 'for details',
    semantic_location: 'article',
    links_count: 1,
    group_count: 0,
    is_broken: link.isBroken === true,
    url_to_status_code: link.isBroken === true ? 404 : 200,
    url_to_spam_score: 0,
    url_to_redirect_target: null,
    ranked_keywords_info: { page_from_keywords_count_top_3: 0, page_from_keywords_count_top_10: 1, page_from_keywords_count_top_100: 4 },
    is_indirect_link: false,
    indirect_link_path: null,
  };
}

const TASK_COST = 0.02;

function envelope(code: number, message: string, tasks: unknown[]) {
  return dataForSeoEnvelope(code, message, tasks, TASK_COST);
}

function taskEnvelope(endpoint: Endpoint, task: Record<string, unknown>, code: number, message: string, result: unknown[] | null) {
  return dataForSeoTask({ code, message, cost: TASK_COST, path: ['v3', 'backlinks', endpoint, 'live'], data: { api: 'backlinks', function: endpoint, ...task }, result });
}
