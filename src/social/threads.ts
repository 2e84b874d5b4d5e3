import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, SocialSourceName, SocialThreadsTable, SocialThreadStatus } from '../../db/schema.js';
import { DAY_MS, toIso } from '../shared/time.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Judgement, SearchTerm } from './relevance.js';
import type { FoundThread } from './sources/source.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';

export type ThreadRow = Selectable<SocialThreadsTable>;

/** A thread as a search first records it: new while open at its source, closed otherwise, with no reply yet. */
export function newThreadRow(workspaceId: string, source: SocialSourceName, thread: FoundThread, term: SearchTerm, judgement: Judgement, now: number): Insertable<SocialThreadsTable> {
  return {
    id: newId('sth'),
    workspace_id: workspaceId,
    source,
    external_id: thread.externalId,
    url: thread.url,
    title: thread.title,
    excerpt: thread.excerpt,
    community: thread.community,
    author: thread.author,
    posted_at: thread.postedAt,
    comments: thread.comments,
    points: thread.points,
    matched_query: term.text,
    matched_kind: term.kind,
    relevance: judgement.relevance,
    relevance_reason: judgement.reason,
    scored_by: judgement.scoredBy,
    source_state: thread.state,
    state_checked_at: now,
    status: thread.state === 'open' ? 'new' : 'closed',
    status_changed_at: now,
    reply_draft: null,
    reply_drafted_at: null,
    reply_url: null,
    first_seen_at: now,
    updated_at: now,
  };
}

export const THREAD_STATUSES: readonly SocialThreadStatus[] = ['new', 'drafted', 'replied', 'dismissed', 'closed'];

/** Freshness falls from 100 to 0 over two weeks: past that, most communities have moved on (HN closes replies). */
export const FRESHNESS_WINDOW_MS = 14 * DAY_MS;

/** 0–100: 100 for a thread posted now, 0 for one two weeks old or older. */
export function freshness(postedAt: number, now: number): number {
  return Math.round(Math.max(0, Math.min(1, 1 - (now - postedAt) / FRESHNESS_WINDOW_MS)) * 100);
}

/** The ranking of `best`: relevance, weighed down by half at most as the thread ages. */
export function threadScore(relevance: number, fresh: number): number {
  return Math.round((relevance * (50 + fresh / 2)) / 100);
}

export function threadRecord(row: ThreadRow, now: number) {
  const fresh = freshness(Number(row.posted_at), now);
  const time = (value: number | null) => toIso(value === null ? null : Number(value));
  return {
    threadId: row.id,
    source: row.source,
    community: row.community,
    title: row.title,
    url: row.url,
    excerpt: row.excerpt,
    author: row.author,
    postedAt: toIso(Number(row.posted_at)),
    comments: row.comments,
    points: row.points,
    matchedQuery: row.matched_query,
    matchedKind: row.matched_kind,
    relevance: row.relevance,
    relevanceReason: row.relevance_reason,
    scoredBy: row.scored_by,
    freshness: fresh,
    score: threadScore(row.relevance, fresh),
    sourceState: row.source_state,
    stateCheckedAt: toIso(Number(row.state_checked_at)),
    status: row.status,
    statusChangedAt: toIso(Number(row.status_changed_at)),
    replyDraft: row.reply_draft,
    replyDraftedAt: time(row.reply_drafted_at),
    replyUrl: row.reply_url,
    firstSeenAt: toIso(Number(row.first_seen_at)),
  };
}

export async function findThread(db: Kysely<Database>, workspaceId: string, threadId: string): Promise<ThreadRow> {
  const row = await db.selectFrom('social_threads').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', threadId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('social thread', threadId);
  return row;
}

export interface ThreadListRequest extends PageRequest {
  status?: SocialThreadStatus | undefined;
  source?: SocialSourceName | undefined;
  minRelevance?: number | undefined;
  sort: 'best' | 'newest';
}

/** Threads a page at a time, best (relevance weighed by freshness) or newest first. */
export async function listThreads(db: Kysely<Database>, now: number, workspaceId: string, request: ThreadListRequest) {
  let rows = db.selectFrom('social_threads').where('workspace_id', '=', workspaceId);
  if (request.status !== undefined) rows = rows.where('status', '=', request.status);
  if (request.source !== undefined) rows = rows.where('source', '=', request.source);
  if (request.minRelevance !== undefined) rows = rows.where('relevance', '>=', request.minRelevance);
  const windowStart = now - FRESHNESS_WINDOW_MS;
  // threadScore in SQL, so that paging follows the same order on both databases.
  const fresh = sql<number>`(case when posted_at > ${windowStart} then (posted_at - ${windowStart}) * 100.0 / ${FRESHNESS_WINDOW_MS} else 0 end)`;
  const ordered =
    request.sort === 'newest'
      ? rows.orderBy('posted_at', 'desc')
      : rows.orderBy(sql`relevance * (50 + ${fresh} / 2)`, 'desc').orderBy('posted_at', 'desc');
  const [page, count] = await Promise.all([
    ordered.selectAll().orderBy('id', 'desc').limit(request.limit).offset(pageOffset(request)).execute(),
    rows.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ...pageOf(request, Number(count.n)), threads: page.map((row) => threadRecord(row, now)) };
}
