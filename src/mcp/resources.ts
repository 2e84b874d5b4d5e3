import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type CacheScope,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
} from '@modelcontextprotocol/server';
import { createHash } from 'node:crypto';
import { writtenArticleMarkdown, writtenArticlesMark, writtenArticlesPage, type WrittenArticleEntry } from '../content/writtenArticles.js';
import { ServiceError } from '../errors.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import { mayUseAll, mcpOperation, refusalError, spendCall, type McpCaller, type McpDeps } from './caller.js';
import { recentChangesMarkdown } from './changesText.js';
import { WEEKLY_REPORT_OPERATIONS, weeklyReportMarkdown } from './weeklyReport.js';

/** Results a client may keep: per caller (the lists follow the token's scopes), for `ttlMs`. */
export type Cacheable<T> = T & { ttlMs: number; cacheScope: CacheScope };

/*
 * How long a client may keep each answer. Short, so that what a client shows follows a change of scopes, toolsets or
 * data within minutes; a read is checked afresh on the server whatever a client kept, so a stale list at worst offers
 * a resource that now answers "not found".
 * - Lists (resources, templates, prompts): a minute, as tools/list, so the lists a client holds age together.
 * - Brand memory and an article: a minute; they change when someone edits them, and an agent reads them several
 *   times in one task (before each article it writes or reviews).
 * - Recent changes: a minute; a client subscribed to it is told of a new change anyway.
 * - The weekly report: 5 minutes; its figures are whole UTC days, it costs two reports (and possibly the analytics
 *   provider's API) to make, and nothing in it changes from one minute to the next.
 */
export const RESOURCE_LIST_TTL_MS = 60_000;
const BRAND_TTL_MS = 60_000;
const ARTICLE_TTL_MS = 60_000;
const REPORT_TTL_MS = 300_000;
const CHANGES_TTL_MS = 60_000;

const MARKDOWN = 'text/markdown';
const ARTICLES_PER_PAGE = 50;

export const BRAND_URI = 'sightline://brand';
export const WEEKLY_REPORT_URI = 'sightline://reports/weekly';
export const CHANGES_URI = 'sightline://changes';
export const ARTICLE_URI_TEMPLATE = 'sightline://articles/{id}';
const ARTICLE_URI = /^sightline:\/\/articles\/([A-Za-z0-9_]{1,100})$/;

export const articleUri = (articleId: string) => `sightline://articles/${articleId}`;

/** A resource with one fixed URI, readable by a caller who may call every operation that reads the same data. */
interface FixedResource {
  resource: Resource;
  readVia: readonly string[];
  ttlMs: number;
  /**
   * Reads it; for a read the caller asked for (`charged`), spending the caller's rate limits as the operations it
   * stands for would.
   */
  read(deps: McpDeps, caller: McpCaller, charged: boolean): Promise<string>;
}

/**
 * A read that does not go through the pipeline spends what a call of the operation reading the same data spends: a
 * point of the plan limit and one of that operation's cap, on the same counter, so reading a resource is no way
 * around the operation's cap.
 */
function spendAs(deps: McpDeps, caller: McpCaller, operationId: string): Promise<void> {
  return spendCall(deps.pipeline, caller.principal, mcpOperation(deps.registry, operationId));
}

const FIXED_RESOURCES: readonly FixedResource[] = [
  {
    resource: {
      uri: BRAND_URI,
      name: 'brand-memory',
      title: 'Brand memory',
      description:
        'The brand memory exactly as the writer model reads it before every article: identity, voice, the writing guidelines switched on, products, buyer profiles and authors. ' +
        'get_brand has the same data as fields.',
      mimeType: MARKDOWN,
    },
    readVia: ['get_brand'],
    ttlMs: BRAND_TTL_MS,
    read: async (deps, caller, charged) => {
      if (charged) await spendAs(deps, caller, 'get_brand');
      return brandMemoryPrompt(deps.db, caller.principal.workspaceId);
    },
  },
  {
    resource: {
      uri: WEEKLY_REPORT_URI,
      name: 'weekly-report',
      title: 'Weekly report',
      description:
        "This week's report: the last 7 UTC days against the 7 before (visibility score, share of voice, articles published, AI visits and crawls, leads, backlinks) and the week's wins, " +
        'from get_reports_summary and get_reports_wins.',
      mimeType: MARKDOWN,
    },
    readVia: WEEKLY_REPORT_OPERATIONS,
    ttlMs: REPORT_TTL_MS,
    // Through the pipeline: both operations' calls are counted there.
    read: (deps, caller) => weeklyReportMarkdown(deps, caller.principal),
  },
  {
    resource: {
      uri: CHANGES_URI,
      name: 'recent-changes',
      title: 'Recent changes',
      description:
        'The 50 newest changes Sightline noticed (visibility moves beyond the noise, citations gained or lost, rank moves, crawler access, failed deliveries, broken connections, replies, lost links), ' +
        'from list_changes. Subscribe to be told when a new one is recorded.',
      mimeType: MARKDOWN,
    },
    readVia: ['list_changes'],
    ttlMs: CHANGES_TTL_MS,
    read: async (deps, caller, charged) => {
      if (charged) await spendAs(deps, caller, 'list_changes');
      return recentChangesMarkdown(deps, caller.principal.workspaceId);
    },
  },
];

/** Articles are readable by whoever may list the content calendar (read:content, the content toolset). */
const ARTICLES_READ_VIA = ['list_content'] as const;

const ARTICLE_TEMPLATE: ResourceTemplateType = {
  uriTemplate: ARTICLE_URI_TEMPLATE,
  name: 'article',
  title: 'Article as Markdown',
  description: 'A written article (draft, published or archived) as Markdown: the title, then the body as it is published, with related reading and FAQ. The id is the contentId of list_content.',
  mimeType: MARKDOWN,
};

function cacheable<T>(result: T, ttlMs: number): Cacheable<T> {
  return { ...result, ttlMs, cacheScope: 'private' };
}

/** A page cursor names the last article of the page before; only articles come in pages after the first. */
function encodeCursor(lastArticleId: string): string {
  return Buffer.from(`articles:${lastArticleId}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const match = /^articles:([A-Za-z0-9_]{1,100})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'cursor: not a nextCursor this server gave');
  return match[1]!;
}

function articleResource(article: WrittenArticleEntry): Resource {
  return {
    uri: articleUri(article.id),
    name: article.title,
    title: article.title,
    description: `Article (${article.status}), ${article.wordCount} words, keyword: ${article.keyword}`,
    mimeType: MARKDOWN,
    annotations: { lastModified: article.updatedAt },
  };
}

/**
 * resources/list: the brand memory and the weekly report first, then the written articles, ARTICLES_PER_PAGE at a
 * time. Only what the caller may read is listed, by the same rules as its tools.
 */
export async function listResources(deps: McpDeps, caller: McpCaller, cursor?: string): Promise<Cacheable<ListResourcesResult>> {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const fixed = after === null ? FIXED_RESOURCES.filter((entry) => mayUseAll(deps.registry, caller, entry.readVia)).map((entry) => entry.resource) : [];
  if (!mayUseAll(deps.registry, caller, ARTICLES_READ_VIA)) return cacheable({ resources: fixed }, RESOURCE_LIST_TTL_MS);
  const page = await writtenArticlesPage(deps.db, caller.principal.workspaceId, { after, limit: ARTICLES_PER_PAGE });
  const resources = [...fixed, ...page.articles.map(articleResource)];
  const last = page.articles.at(-1);
  return cacheable({ resources, ...(page.more && last !== undefined ? { nextCursor: encodeCursor(last.id) } : {}) }, RESOURCE_LIST_TTL_MS);
}

/** resources/templates/list: the article template, for a caller who may read articles. */
export function listResourceTemplates(deps: McpDeps, caller: McpCaller): Cacheable<ListResourceTemplatesResult> {
  return cacheable({ resourceTemplates: mayUseAll(deps.registry, caller, ARTICLES_READ_VIA) ? [ARTICLE_TEMPLATE] : [] }, RESOURCE_LIST_TTL_MS);
}

/** A refusal the pipeline or a domain read gave, as MCP answers it: anything missing is not found, with the uri. */
function protocolError(error: ServiceError, uri: string): ProtocolError {
  return error.status === 404 ? new ResourceNotFoundError(uri) : refusalError(error);
}

/**
 * The text of a resource, or undefined when the caller may not read it. `charged`: a read the caller asked for, which
 * spends its rate limits; a listen stream's look (resourceMark) is not one, since it tells the client no more than
 * that the text changed.
 */
async function readText(deps: McpDeps, caller: McpCaller, uri: string, charged: boolean): Promise<{ text: string; ttlMs: number } | undefined> {
  const fixed = FIXED_RESOURCES.find((entry) => entry.resource.uri === uri);
  if (fixed !== undefined) return mayUseAll(deps.registry, caller, fixed.readVia) ? { text: await fixed.read(deps, caller, charged), ttlMs: fixed.ttlMs } : undefined;
  const articleId = ARTICLE_URI.exec(uri)?.[1];
  if (articleId === undefined || !mayUseAll(deps.registry, caller, ARTICLES_READ_VIA)) return undefined;
  if (charged) await spendAs(deps, caller, ARTICLES_READ_VIA[0]);
  const { markdown } = await writtenArticleMarkdown(deps.db, deps.clock, caller.principal.workspaceId, articleId);
  return { text: markdown, ttlMs: ARTICLE_TTL_MS };
}

/**
 * resources/read. A resource the caller may not read (scopes, toolsets), an unknown URI, and an article of another
 * workspace all answer the same -32602 with `data: { uri }` (SEP-2164): none of them says whether it exists. A read
 * the caller may make counts against its rate limits as a call of the operation reading the same data does.
 */
export async function readResource(deps: McpDeps, caller: McpCaller, uri: string): Promise<Cacheable<ReadResourceResult>> {
  const found = await readFound(deps, caller, uri, true);
  return cacheable({ contents: [{ uri, mimeType: MARKDOWN, text: found.text }] }, found.ttlMs);
}

async function readFound(deps: McpDeps, caller: McpCaller, uri: string, charged: boolean): Promise<{ text: string; ttlMs: number }> {
  let found: { text: string; ttlMs: number } | undefined;
  try {
    found = await readText(deps, caller, uri, charged);
  } catch (error) {
    if (error instanceof ServiceError) throw protocolError(error, uri);
    throw error;
  }
  if (found === undefined) throw new ResourceNotFoundError(uri);
  return found;
}

/*
 * Fingerprints for subscriptions/listen: a listen stream looks again every few seconds and tells its client when one
 * changed. They are read from the database, so a change made through any instance shows on every instance's streams.
 */

/** Changes when resources/list would answer differently for the caller. */
export async function resourceListMark(deps: McpDeps, caller: McpCaller): Promise<string> {
  // The fixed resources and the app views change only with a deploy; a caller who may not read articles sees none.
  return mayUseAll(deps.registry, caller, ARTICLES_READ_VIA) ? writtenArticlesMark(deps.db, caller.principal.workspaceId) : '';
}

/**
 * Changes when resources/read of `uri` would answer differently for the caller: a digest of the text, or "missing"
 * for anything it cannot read (another workspace's article stays "missing" forever, telling nothing). Undefined when
 * the read failed for another reason (a provider down, a rate cap): nothing is known then, so nothing is said. Not
 * charged to the caller, except the weekly report's, which is made by two operations through the pipeline (so at most
 * once per resourceLookIntervalMs).
 */
export async function resourceMark(deps: McpDeps, caller: McpCaller, uri: string): Promise<string | undefined> {
  try {
    const { text } = await readFound(deps, caller, uri, false);
    return createHash('sha256').update(text).digest('base64url');
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return 'missing';
    if (error instanceof ProtocolError) return undefined;
    throw error;
  }
}

/** How often a subscribed resource is worth reading again: the weekly report only as often as a client may cache it. */
export function resourceLookIntervalMs(uri: string): number {
  return uri === WEEKLY_REPORT_URI ? REPORT_TTL_MS : 0;
}
