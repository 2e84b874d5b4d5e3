import { z } from 'zod';
import { DataForSeoApi, type TaskAnswer } from './api.js';
import type { LimiterStore } from '../../limits/store.js';
import { domainOf } from '../../shared/urls.js';
import { EngineError } from '../../visibility/engines/engine.js';
import type { EngineTuning } from '../../visibility/engines/providerHttp.js';
import { SERP_LIMIT_NAME } from './serp.js';
import type { BacklinkIndex, BacklinkPage, BacklinkSummary, IndexedBacklink, IndexedReferringDomain } from '../../backlinks/index/provider.js';

/** DataForSEO's largest `limit` on the backlinks and referring-domains endpoints. */
const MAX_PAGE_SIZE = 1000;
/** DataForSEO's largest `offset` on backlinks/live; deeper pages are reached only by search_after_token. */
const MAX_OFFSET = 20_000;

/**
 * Where the next page starts, handed to the caller as the opaque `nextPage`: the token, the request it continues
 * (its limit and offset, which a token request must repeat) and how many rows came before it.
 */
const continuationSchema = z.object({ token: z.string(), limit: z.int().min(1), offset: z.int().min(0).optional(), position: z.int().min(0) });
type Continuation = z.infer<typeof continuationSchema>;

function encodeContinuation(continuation: Continuation): string {
  return Buffer.from(JSON.stringify(continuation)).toString('base64url');
}

function decodeContinuation(page: string): Continuation {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const parsed = continuationSchema.safeParse(value);
  if (!parsed.success) throw new EngineError('DataForSEO', 'bad_response', 'not a page this backlink index handed out');
  return parsed.data;
}

/**
 * The paging fields of the request for a page of `limit` rows after `from`. A token must come with a request identical
 * to the one that gave it (DataForSEO's rule), so a page of another size (the last, shorter one, asked for so that
 * only the rows kept are paid for) goes by `offset` instead while the position allows one; deeper than that, the
 * token's request is repeated and answers its own, larger page.
 */
function pagingOf(limit: number, from: Continuation | undefined): { limit: number; offset?: number; search_after_token?: string } {
  if (from === undefined) return { limit };
  if (from.limit !== limit && from.position <= MAX_OFFSET) return { limit, offset: from.position };
  return { limit: from.limit, ...(from.offset === undefined ? {} : { offset: from.offset }), search_after_token: from.token };
}

// Only what the service reads is declared; DataForSEO sends many more fields (page titles, spam scores, countries).
const backlinkItemSchema = z.object({
  url_from: z.string(),
  url_to: z.string(),
  anchor: z.string().nullish(),
  alt: z.string().nullish(),
  dofollow: z.boolean().nullish(),
  domain_from_rank: z.number().nullish(),
  first_seen: z.string().nullish(),
  last_seen: z.string().nullish(),
  /** Not in DataForSEO's backlink items (only in its summaries), but compatible servers may send it. */
  lost_date: z.string().nullish(),
  is_lost: z.boolean().nullish(),
  is_broken: z.boolean().nullish(),
});
const backlinksResultSchema = z.object({
  total_count: z.number().nullish(),
  search_after_token: z.string().nullish(),
  items: z.array(z.unknown()).nullish(),
});
const summarySchema = z.object({
  backlinks: z.number().nullish(),
  referring_domains: z.number().nullish(),
  referring_main_domains: z.number().nullish(),
  backlinks_nofollow: z.number().nullish(),
  broken_backlinks: z.number().nullish(),
});
const referringDomainsResultSchema = z.object({ items: z.array(z.unknown()).nullish() });
const referringDomainSchema = z.object({ domain: z.string(), backlinks: z.number().nullish(), rank: z.number().nullish() });

/** DataForSEO's times, "2019-11-15 12:57:46 +00:00", as epoch ms; null when missing or unreadable. */
export function dataForSeoTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const iso = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) ?([+-]\d{2}:?\d{2}|Z)?$/.exec(value.trim());
  const ms = Date.parse(iso === null ? value : `${iso[1]}T${iso[2]}${iso[3] ?? 'Z'}`);
  return Number.isFinite(ms) ? ms : null;
}

function firstResult<T>(answer: TaskAnswer, schema: z.ZodType<T>, what: string): T | undefined {
  if (answer.result.length === 0) return undefined;
  const parsed = schema.safeParse(answer.result[0]);
  if (!parsed.success) throw new EngineError('DataForSEO', 'bad_response', `DataForSEO answered a ${what} task with an unexpected result`);
  return parsed.data;
}

/** An item that is not a backlink with http(s) URLs is left out, not a reason to drop the page. */
function backlinkOf(item: unknown): IndexedBacklink | undefined {
  const parsed = backlinkItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const link = parsed.data;
  const linkingDomain = domainOf(link.url_from);
  if (linkingDomain === undefined || domainOf(link.url_to) === undefined) return undefined;
  const lost = link.is_lost === true;
  return {
    linkingUrl: link.url_from,
    linkingDomain,
    targetUrl: link.url_to,
    anchorText: (link.anchor ?? link.alt ?? '').trim(),
    dofollow: link.dofollow !== false,
    domainRank: link.domain_from_rank ?? null,
    firstSeenAt: dataForSeoTime(link.first_seen),
    lost,
    lostAt: lost ? (dataForSeoTime(link.lost_date) ?? dataForSeoTime(link.last_seen)) : null,
    broken: link.is_broken === true,
  };
}

export interface BacklinkIndexSettings {
  baseUrl: string;
  login: string;
  password: string;
  /** BACKLINKS_RPM on its own account; the SERP_RPM allowance, shared with the SERP client, on the SERP provider's. */
  perMinute: number;
  /** True when SERP_* serve (BACKLINKS_* not set): one account, so one set of limits for both clients. */
  sharesSerpAccount: boolean;
  /** BACKLINKS_MAX_ROWS: backlinks read per workspace and sync at most. */
  maxRows: number;
}

/**
 * The backlink index on DataForSEO's Backlinks API (or one compatible with it): `backlinks/live` with deep paging by
 * `search_after_token`, `summary/live` and `referring_domains/live`, live endpoints with one task per request. Every
 * request asks for the target with its subdomains and without links from itself; backlinks come live and lost
 * (`backlinks_status_type: all`) so that lost links can be told. On the SERP provider's account it shares that
 * account's limiter slots with the SERP client.
 */
class DataForSeoBacklinkIndex implements BacklinkIndex {
  readonly provider = 'dataforseo';
  readonly authorityMetric = 'dataforseo_domain_rank';
  readonly maxPageSize = MAX_PAGE_SIZE;
  readonly maxRows: number;
  private readonly api: DataForSeoApi;

  constructor(settings: BacklinkIndexSettings, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>) {
    this.maxRows = settings.maxRows;
    this.api = new DataForSeoApi(settings, tuning, store, settings.sharesSerpAccount ? SERP_LIMIT_NAME : 'backlinks');
  }

  async backlinks(target: string, pageSize: number, page?: string): Promise<BacklinkPage> {
    const from = page === undefined ? undefined : decodeContinuation(page);
    const paging = pagingOf(Math.min(pageSize, MAX_PAGE_SIZE), from);
    const task = {
      target,
      mode: 'as_is',
      limit: paging.limit,
      ...(paging.offset === undefined ? {} : { offset: paging.offset }),
      backlinks_status_type: 'all',
      include_subdomains: true,
      exclude_internal_backlinks: true,
      order_by: ['domain_from_rank,desc'],
      ...(paging.search_after_token === undefined ? {} : { search_after_token: paging.search_after_token }),
    };
    const { value } = await this.api.post('/v3/backlinks/backlinks/live', task, (answer) => {
      const result = firstResult(answer, backlinksResultSchema, 'backlinks');
      const items = result?.items ?? [];
      const links = items.flatMap((item) => backlinkOf(item) ?? []);
      // A page shorter than asked is the last, whatever token comes with it.
      const token = items.length >= task.limit ? (result?.search_after_token ?? undefined) : undefined;
      const nextPage =
        token === undefined
          ? undefined
          : encodeContinuation({ token, limit: task.limit, ...(paging.offset === undefined ? {} : { offset: paging.offset }), position: (from?.position ?? 0) + items.length });
      return { links, totalCount: result?.total_count ?? null, nextPage };
    });
    return value;
  }

  async summary(target: string): Promise<BacklinkSummary> {
    const task = { target, include_subdomains: true, exclude_internal_backlinks: true, backlinks_status_type: 'live' };
    const { value } = await this.api.post('/v3/backlinks/summary/live', task, (answer) => {
      const summary = firstResult(answer, summarySchema, 'summary');
      return {
        backlinks: summary?.backlinks ?? null,
        referringDomains: summary?.referring_domains ?? null,
        referringMainDomains: summary?.referring_main_domains ?? null,
        nofollowBacklinks: summary?.backlinks_nofollow ?? null,
        brokenBacklinks: summary?.broken_backlinks ?? null,
      };
    });
    return value;
  }

  async referringDomains(target: string, limit: number): Promise<IndexedReferringDomain[]> {
    const task = { target, limit: Math.min(limit, MAX_PAGE_SIZE), include_subdomains: true, exclude_internal_backlinks: true, order_by: ['rank,desc'] };
    const { value } = await this.api.post('/v3/backlinks/referring_domains/live', task, (answer) => {
      const items = firstResult(answer, referringDomainsResultSchema, 'referring domains')?.items ?? [];
      return items.flatMap((item) => {
        const parsed = referringDomainSchema.safeParse(item);
        if (!parsed.success) return [];
        const domain = parsed.data.domain.trim().toLowerCase().replace(/^www\./, '');
        return domain === '' ? [] : [{ domain, links: parsed.data.backlinks ?? null, rank: parsed.data.rank ?? null }];
      });
    });
    return value.slice(0, limit);
  }

  close(): Promise<void> {
    return this.api.close();
  }
}

export function createBacklinkIndex(settings: BacklinkIndexSettings | undefined, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>): BacklinkIndex | undefined {
  return settings === undefined ? undefined : new DataForSeoBacklinkIndex(settings, tuning, store);
}
