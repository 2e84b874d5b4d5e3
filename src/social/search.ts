import type { Insertable, Kysely } from 'kysely';
import type { Database, SocialSourceName, SocialThreadsTable, ThreadSourceState } from '../../db/schema.js';
import { recordChanges, type NoticedChange } from '../changes/record.js';
import { loadRules } from '../changes/rules.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { enqueueJob, pendingJobId, workspacesWithJob } from '../jobs/queue.js';
import { RetryableJobError, type JobHandler } from '../jobs/worker.js';
import type { Services } from '../outsideServices.js';
import { judgeThreads, type SearchTerm } from './relevance.js';
import { newThreadRow } from './threads.js';
import { SOCIAL_SOURCE_NAMES, SourcePausedError, type FoundThread, type SocialSource } from './sources/source.js';
import { BLUESKY } from '../integrations/bluesky/provider.js';
import { nameList } from '../integrations/kit/declaration.js';
import { REDDIT } from '../integrations/reddit/provider.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Each workspace is searched once a day. */
export const SEARCH_EVERY_MS = DAY_MS;
/** A search looks this far back; threads found before are recognised and only refreshed. */
const LOOKBACK_MS = 7 * DAY_MS;
/** Tracked queries searched per run, taken in turn, so that a large pool does not spend a source's daily quota. */
export const QUERIES_PER_RUN = 10;
const COMPETITORS_PER_RUN = 5;
const THREADS_PER_TERM = 25;
/** New threads judged per run at most (the freshest): the writer's cost stays bounded. */
const NEW_THREADS_PER_RUN = 100;
/** A thread shown as open had its state asked of the source within this time. */
export const RECHECK_AFTER_MS = 6 * HOUR_MS;
/** Threads nobody acted on (new, dismissed, closed) are forgotten after this. */
export const RETENTION_MS = 90 * DAY_MS;
const STATES_PER_CALL = 100;

/** The configured sources, in a fixed order. */
export function configuredSources(services: Pick<Services, 'socialSources'>): SocialSource[] {
  return SOCIAL_SOURCE_NAMES.flatMap((name) => services.socialSources[name] ?? []);
}

const NO_SOURCE = `no social source is configured: Hacker News and Stack Exchange are on unless SOCIAL_SOURCES_OFF lists them; Bluesky needs ${nameList(BLUESKY.turnedOnBy)}, Reddit ${nameList(REDDIT.turnedOnBy)}`;

/** Queues a social_search of the workspace unless one is waiting or running; the job that will do it either way. */
export async function queueSocialSearch(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'socialSources'>, workspaceId: string) {
  const sources = configuredSources(services).map((source) => source.name);
  if (sources.length === 0) throw new BadInputError(NO_SOURCE);
  const pending = await pendingJobId(db, workspaceId, 'social_search');
  if (pending !== undefined) return { jobId: pending, queued: false, sources };
  const jobId = await enqueueJob(db, clock, { workspaceId, kind: 'social_search', subjectId: workspaceId, maxAttempts: 2 });
  return { jobId, queued: true, sources };
}

/** The daily schedule, looked at by a claimed sweep: a workspace is due when no social_search of it was queued in the last day. */
export async function queueDueSocialSearches(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'socialSources'>): Promise<number> {
  if (configuredSources(services).length === 0) return 0;
  const since = clock.now() - SEARCH_EVERY_MS;
  const due = await db
    .selectFrom('workspaces')
    .select('workspaces.id')
    .where('workspaces.id', 'not in', workspacesWithJob(db, 'social_search', since))
    .execute();
  let queued = 0;
  for (const { id } of due) if ((await queueSocialSearch(db, clock, services, id)).queued) queued++;
  return queued;
}

/**
 * What a run searches for: up to QUERIES_PER_RUN tracked queries (the next ones in turn: `run` counts the runs before),
 * the brand's name and the newest competitors' names.
 */
export async function searchTerms(db: Kysely<Database>, workspaceId: string, run: number): Promise<SearchTerm[]> {
  const [queries, brand, competitors] = await Promise.all([
    db.selectFrom('queries').select('text').where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('brands').select('name').where('workspace_id', '=', workspaceId).executeTakeFirst(),
    db.selectFrom('competitors').select('name').where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).orderBy('created_at', 'desc').limit(COMPETITORS_PER_RUN).execute(),
  ]);
  const start = queries.length === 0 ? 0 : (run * QUERIES_PER_RUN) % queries.length;
  const turn = [...queries.slice(start), ...queries.slice(0, start)].slice(0, QUERIES_PER_RUN);
  const terms: SearchTerm[] = [
    ...turn.map((q) => ({ text: q.text, kind: 'query' as const })),
    ...(brand?.name.trim() ? [{ text: brand.name.trim(), kind: 'brand' as const }] : []),
    ...competitors.map((c) => ({ text: c.name, kind: 'competitor' as const })),
  ];
  const seen = new Set<string>();
  return terms.filter((term) => !seen.has(term.text.toLowerCase()) && seen.add(term.text.toLowerCase()));
}

type SourceOutcome = { threads: number } | { pausedUntil: string; reason: string } | { error: string };

interface Found {
  source: SocialSourceName;
  thread: FoundThread;
  term: SearchTerm;
}

/** Every term in one source; a pause or a failure ends that source's part of the run (the next run tries again). */
async function searchSource(source: SocialSource, terms: readonly SearchTerm[], since: number, into: Map<string, Found>): Promise<SourceOutcome> {
  let threads = 0;
  try {
    for (const term of terms) {
      for (const thread of await source.search({ query: term.text, since, limit: THREADS_PER_TERM })) {
        threads++;
        const key = `${source.name}\n${thread.externalId}`;
        if (!into.has(key)) into.set(key, { source: source.name, thread, term });
      }
    }
    return { threads };
  } catch (error) {
    if (error instanceof SourcePausedError) return { pausedUntil: new Date(error.until).toISOString(), reason: error.message };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `social.thread_found` for a thread just stored that is open and at or above the workspace's relevance threshold.
 * Keyed by the thread at its source: found again by another search or instance, it is the same change.
 */
function threadFound(row: Insertable<SocialThreadsTable>, threshold: number | null): NoticedChange[] {
  if (row.status !== 'new' || row.relevance < (threshold ?? 0)) return [];
  return [
    {
      kind: 'social.thread_found',
      dedupeKey: `${row.source}:${row.external_id}`,
      title: `New ${row.community} thread, relevance ${row.relevance}: "${row.title.slice(0, 150)}"`,
      details: {
        threadId: row.id,
        source: row.source,
        community: row.community,
        url: row.url,
        title: row.title,
        author: row.author,
        postedAt: row.posted_at,
        relevance: row.relevance,
        relevanceReason: row.relevance_reason,
        matchedQuery: row.matched_query,
        matchedKind: row.matched_kind,
      },
    },
  ];
}

/** Asks the sources again about the threads shown as open that were not checked lately; closes those no longer open. */
async function recheckOpenThreads(db: Kysely<Database>, clock: Clock, workspaceId: string, sources: readonly SocialSource[]): Promise<{ rechecked: number; closed: number }> {
  let rechecked = 0;
  let closed = 0;
  for (const source of sources) {
    const stale = await db
      .selectFrom('social_threads')
      .select(['id', 'external_id'])
      .where('workspace_id', '=', workspaceId)
      .where('source', '=', source.name)
      .where('status', 'in', ['new', 'drafted'])
      .where('state_checked_at', '<', clock.now() - RECHECK_AFTER_MS)
      .execute();
    for (let i = 0; i < stale.length; i += STATES_PER_CALL) {
      const chunk = stale.slice(i, i + STATES_PER_CALL);
      let states: Map<string, ThreadSourceState>;
      try {
        states = await source.states(chunk.map((row) => row.external_id));
      } catch {
        break; // asked again on the next run
      }
      for (const row of chunk) {
        const state = states.get(row.external_id) ?? 'deleted';
        closed += await recordSourceState(db, clock, row.id, state);
        rechecked++;
      }
    }
  }
  return { rechecked, closed };
}

/** Stores what the source says of a thread; a thread no longer open that nobody replied to is closed. 1 when it was closed. */
export async function recordSourceState(db: Kysely<Database>, clock: Clock, threadId: string, state: ThreadSourceState): Promise<number> {
  const now = clock.now();
  await db.updateTable('social_threads').set({ source_state: state, state_checked_at: now, updated_at: now }).where('id', '=', threadId).execute();
  if (state === 'open') return 0;
  const closed = await db
    .updateTable('social_threads')
    .set({ status: 'closed', status_changed_at: now })
    .where('id', '=', threadId)
    .where('status', 'in', ['new', 'drafted'])
    .executeTakeFirst();
  return Number(closed.numUpdatedRows);
}

/**
 * Searches each configured source for the workspace's terms, keeps each thread once (the first term that found it),
 * judges the new ones (the writer model when configured, else the words), stores them, refreshes the ones known,
 * asks the sources again about open threads not checked lately, and forgets old threads nobody acted on.
 */
export const socialSearchJob: JobHandler = {
  async run(job, { db, clock, services, progress, usage, logger }) {
    const sources = configuredSources(services);
    if (sources.length === 0) throw new Error(NO_SOURCE);
    const earlierRuns = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', job.workspaceId)
      .where('kind', '=', 'social_search')
      .where('state', '=', 'done')
      .executeTakeFirstOrThrow();
    const terms = await searchTerms(db, job.workspaceId, Number(earlierRuns.n));
    if (terms.length === 0) return { skipped: 'the workspace has no tracked query, brand name or competitor to search for' };
    const found = new Map<string, Found>();
    const outcomes: Partial<Record<SocialSourceName, SourceOutcome>> = {};
    for (const source of sources) {
      await progress(`searching ${source.name} for ${terms.length} terms`);
      outcomes[source.name] = await searchSource(source, terms, clock.now() - LOOKBACK_MS, found);
    }
    const results = Object.values(outcomes);
    if (results.every((outcome) => 'error' in outcome)) throw new RetryableJobError(`every source failed: ${sources.map((s) => `${s.name}: ${(outcomes[s.name] as { error: string }).error}`).join('; ')}`);

    const all = [...found.values()];
    const known = new Set<string>();
    for (const source of sources) {
      const ids = all.filter((f) => f.source === source.name).map((f) => f.thread.externalId);
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db.selectFrom('social_threads').select('external_id').where('workspace_id', '=', job.workspaceId).where('source', '=', source.name).where('external_id', 'in', ids.slice(i, i + 500)).execute();
        for (const row of rows) known.add(`${source.name}\n${row.external_id}`);
      }
    }
    const fresh = all.filter((f) => !known.has(`${f.source}\n${f.thread.externalId}`)).sort((a, b) => b.thread.postedAt - a.thread.postedAt).slice(0, NEW_THREADS_PER_RUN);
    const refreshed = all.filter((f) => known.has(`${f.source}\n${f.thread.externalId}`));
    await progress(`judging ${fresh.length} new threads`);
    const judged = await judgeThreads(db, services.writer, job.workspaceId, fresh, usage, (error) => logger.warn({ err: error, jobId: job.id }, 'social relevance: the writer failed; words decide'));

    const now = clock.now();
    const rules = await loadRules(db, job.workspaceId);
    await db.transaction().execute(async (trx) => {
      if ((await trx.selectFrom('workspaces').select('id').where('id', '=', job.workspaceId).executeTakeFirst()) === undefined) return;
      const relevant: NoticedChange[] = [];
      for (const [i, { source, thread, term }] of fresh.entries()) {
        const row = newThreadRow(job.workspaceId, source, thread, term, judged[i]!, now);
        const inserted = await trx
          .insertInto('social_threads')
          .values(row)
          .onConflict((oc) => oc.columns(['workspace_id', 'source', 'external_id']).doNothing())
          .executeTakeFirst();
        if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 1n) relevant.push(...threadFound(row, rules['social.thread_found'].threshold));
      }
      await recordChanges(trx, clock, job.workspaceId, relevant, rules);
      for (const { source, thread } of refreshed) {
        await trx
          .updateTable('social_threads')
          .set({ title: thread.title, excerpt: thread.excerpt, comments: thread.comments, points: thread.points, source_state: thread.state, state_checked_at: now, updated_at: now })
          .where('workspace_id', '=', job.workspaceId)
          .where('source', '=', source)
          .where('external_id', '=', thread.externalId)
          .execute();
      }
      await trx
        .updateTable('social_threads')
        .set({ status: 'closed', status_changed_at: now })
        .where('workspace_id', '=', job.workspaceId)
        .where('status', 'in', ['new', 'drafted'])
        .where('source_state', '!=', 'open')
        .execute();
    });
    await progress('checking open threads again');
    const { rechecked, closed } = await recheckOpenThreads(db, clock, job.workspaceId, sources);
    const forgotten = await db
      .deleteFrom('social_threads')
      .where('workspace_id', '=', job.workspaceId)
      .where('status', 'in', ['new', 'dismissed', 'closed'])
      .where('first_seen_at', '<', clock.now() - RETENTION_MS)
      .executeTakeFirst();
    return {
      terms: terms.map((term) => term.text),
      sources: outcomes,
      found: all.length,
      new: fresh.length,
      refreshed: refreshed.length,
      rechecked,
      closed,
      forgotten: Number(forgotten.numDeletedRows),
    };
  },
};
