import type { Insertable, Kysely } from 'kysely';
import type { Database, EngineName, MentionResult, VisibilityDailyTable } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { toJson } from '../../shared/json.js';
import { lockWorkspace } from '../../workspace/workspaces.js';
import { newId } from '../../ids.js';
import { utcDay } from '../../shared/time.js';
import { queuePositioning } from '../competitors/positioning.js';
import { queueDiscovery } from '../../outreach/discover.js';
import { queueChangeDetection } from '../../changes/detectJob.js';
import type { EngineAnswer } from '../engines/engine.js';
import { noteEngineCheck } from '../rankings/latestChecks.js';
import { pageKey } from '../rankings/pages.js';
import { noteRankCheck } from '../rankings/rankChecks.js';
import type { AiOverview, OrganicResult } from '../serp/serp.js';
import { classifyAnswer, isOnDomain } from './classify.js';
import { BRAND_SUBJECT, loadSubjects } from './subjects.js';

/** Rank checks keep the top 30 organic results. */
export const RANK_DEPTH = 30;

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export interface Sentiment {
  label: SentimentLabel;
  /** 0 (most negative) to 100 (most positive). */
  score: number;
}

export interface CheckFailure {
  errorClass: string;
  message: string;
}

export interface EngineAnswerInput {
  workspaceId: string;
  runId: string;
  queryId: string;
  engine: EngineName;
  runIndex: number;
  /** The answer, or null when the check failed (then `error` says why). */
  answer: EngineAnswer | null;
  error: CheckFailure | null;
  /** The writer model's reading of the passage around each subject's first mention, by subject id. */
  sentiments?: ReadonlyMap<string, Sentiment>;
  /** The rank check whose search page the answer was read from. */
  rankCheckId?: string;
}

export interface RecordedAnswer {
  answerId: string;
  /** False when this check had been recorded already (a job run again after its worker died): nothing changed. */
  recorded: boolean;
  brandResult: MentionResult;
  checkedAt: number;
}

/** Runs `work` in the caller's transaction, or in one of its own. */
function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Counts one more finished check on its run, and closes the run when every planned check is in; the check that closes
 * it queues the refresh of the competitors' positioning, the search for outreach prospects from the answers now in, and
 * the comparison with the run before (src/changes).
 */
async function countOnRun(db: Kysely<Database>, clock: Clock, workspaceId: string, runId: string, failed: boolean): Promise<void> {
  await db
    .updateTable('check_runs')
    .set((eb) => (failed ? { failed: eb('failed', '+', 1) } : { completed: eb('completed', '+', 1) }))
    .where('id', '=', runId)
    .execute();
  const closed = await db
    .updateTable('check_runs')
    .set({ state: 'done', finished_at: clock.now() })
    .where('id', '=', runId)
    .where('state', '=', 'running')
    .where((eb) => eb(eb('completed', '+', eb.ref('failed')), '>=', eb.ref('planned')))
    .executeTakeFirst();
  if (closed.numUpdatedRows === 1n) {
    await queuePositioning(db, clock, workspaceId, runId);
    // The answers and rank checks just in are where new outreach prospects come from.
    await queueDiscovery(db, clock, workspaceId);
    await queueChangeDetection(db, clock, workspaceId, runId);
  }
}

/**
 * Stores one engine answer (or failed check) with its classification for the brand and every tracked competitor,
 * and adds it to the daily pre-aggregates, all in one transaction.
 *
 * checked_at is unique per workspace: an answer gets max(now, the workspace's latest + 1 ms) under the workspace
 * lock, so a time is an exact list_citations cursor and new answers never land inside pages already read.
 *
 * visibility_daily counts per UTC day, engine and subject: `answers` = answers given (failed checks are only in
 * `failed`, and a search page that showed no AI answer only in `not_shown`, never in `answers`), `answers_with_citations` = of those, answers with at least one citation, `cited` and
 * `mentioned` are exclusive (an answer citing the subject is `cited` only, so mention rate = (cited + mentioned) /
 * answers), and positive / neutral / negative / sentiment_score_sum cover the answers with a sentiment reading.
 * cited_domains_daily counts answers citing each domain (a domain once per answer).
 */
export async function recordEngineAnswer(db: Kysely<Database>, clock: Clock, input: EngineAnswerInput): Promise<RecordedAnswer> {
  return inTransaction(db, async (trx) => {
    const { workspaceId, answer } = input;
    await lockWorkspace(trx, workspaceId);
    const existing = await trx
      .selectFrom('engine_answers')
      .select(['id', 'brand_result', 'checked_at'])
      .where('workspace_id', '=', workspaceId)
      .where('run_id', '=', input.runId)
      .where('query_id', '=', input.queryId)
      .where('engine', '=', input.engine)
      .where('run_index', '=', input.runIndex)
      .executeTakeFirst();
    if (existing !== undefined) return { answerId: existing.id, recorded: false, brandResult: existing.brand_result, checkedAt: existing.checked_at };

    const latest = await trx
      .selectFrom('engine_answers')
      .select('checked_at')
      .where('workspace_id', '=', workspaceId)
      .orderBy('checked_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const checkedAt = Math.max(clock.now(), (latest?.checked_at ?? Number.NEGATIVE_INFINITY) + 1);
    const { subjects } = await loadSubjects(trx, workspaceId);
    const classified =
      answer === null || answer.notShown
        ? subjects.map((s) => ({ subjectId: s.id, result: answer === null ? ('failed' as const) : ('not_shown' as const), position: null, passage: null }))
        : classifyAnswer(answer, subjects);
    const results = classified.map((c) => ({ ...c, sentiment: c.passage === null ? undefined : input.sentiments?.get(c.subjectId) }));
    const brandResult = results.find((r) => r.subjectId === BRAND_SUBJECT)!.result;
    const answerId = newId('ans');
    const citations = answer?.citations ?? [];

    await trx
      .insertInto('engine_answers')
      .values({
        id: answerId,
        workspace_id: workspaceId,
        run_id: input.runId,
        query_id: input.queryId,
        engine: input.engine,
        run_index: input.runIndex,
        model: answer?.model ?? null,
        answer_text: answer?.text ?? null,
        citations: toJson(citations),
        latency_ms: answer?.latencyMs ?? null,
        error_class: answer === null ? (input.error?.errorClass ?? 'provider_error') : null,
        error_message: answer === null ? (input.error?.message ?? null) : null,
        brand_result: brandResult,
        rank_check_id: input.rankCheckId ?? null,
        checked_at: checkedAt,
      })
      .execute();
    await trx
      .insertInto('answer_mentions')
      .values(
        results.map((r) => ({
          answer_id: answerId,
          workspace_id: workspaceId,
          subject_id: r.subjectId,
          result: r.result,
          position: r.position,
          sentiment: r.sentiment?.label ?? null,
          sentiment_score: r.sentiment?.score ?? null,
          passage: r.passage,
        })),
      )
      .execute();

    const day = utcDay(checkedAt);
    const given = answer === null || answer.notShown ? 0 : 1;
    const daily: Array<Insertable<VisibilityDailyTable>> = results.map((r) => ({
      workspace_id: workspaceId,
      day,
      engine: input.engine,
      subject_id: r.subjectId,
      answers: given,
      answers_with_citations: given === 1 && citations.length > 0 ? 1 : 0,
      cited: r.result === 'cited' ? 1 : 0,
      mentioned: r.result === 'mentioned' ? 1 : 0,
      failed: r.result === 'failed' ? 1 : 0,
      not_shown: r.result === 'not_shown' ? 1 : 0,
      positive: r.sentiment?.label === 'positive' ? 1 : 0,
      neutral: r.sentiment?.label === 'neutral' ? 1 : 0,
      negative: r.sentiment?.label === 'negative' ? 1 : 0,
      sentiment_score_sum: r.sentiment?.score ?? 0,
    }));
    await trx
      .insertInto('visibility_daily')
      .values(daily)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'day', 'engine', 'subject_id']).doUpdateSet((eb) => ({
          answers: eb('visibility_daily.answers', '+', eb.ref('excluded.answers')),
          answers_with_citations: eb('visibility_daily.answers_with_citations', '+', eb.ref('excluded.answers_with_citations')),
          cited: eb('visibility_daily.cited', '+', eb.ref('excluded.cited')),
          mentioned: eb('visibility_daily.mentioned', '+', eb.ref('excluded.mentioned')),
          failed: eb('visibility_daily.failed', '+', eb.ref('excluded.failed')),
          not_shown: eb('visibility_daily.not_shown', '+', eb.ref('excluded.not_shown')),
          positive: eb('visibility_daily.positive', '+', eb.ref('excluded.positive')),
          neutral: eb('visibility_daily.neutral', '+', eb.ref('excluded.neutral')),
          negative: eb('visibility_daily.negative', '+', eb.ref('excluded.negative')),
          sentiment_score_sum: eb('visibility_daily.sentiment_score_sum', '+', eb.ref('excluded.sentiment_score_sum')),
        })),
      )
      .execute();
    const domains = [...new Set(citations.map((c) => c.domain))];
    if (domains.length > 0) {
      await trx
        .insertInto('cited_domains_daily')
        .values(domains.map((domain) => ({ workspace_id: workspaceId, day, engine: input.engine, domain, answers: 1 })))
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'day', 'engine', 'domain']).doUpdateSet((eb) => ({ answers: eb('cited_domains_daily.answers', '+', eb.ref('excluded.answers')) })),
        )
        .execute();
    }
    const brandDomains = subjects.find((subject) => subject.id === BRAND_SUBJECT)?.domains ?? [];
    const ownPages = [...new Set(citations.filter((c) => brandDomains.some((domain) => domain !== '' && isOnDomain(c.domain, domain))).map((c) => pageKey(c.url)))];
    if (ownPages.length > 0) {
      await trx
        .insertInto('cited_pages_daily')
        .values(ownPages.map((page) => ({ workspace_id: workspaceId, page_key: page, day, engine: input.engine, answers: 1 })))
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'page_key', 'day', 'engine']).doUpdateSet((eb) => ({ answers: eb('cited_pages_daily.answers', '+', eb.ref('excluded.answers')) })),
        )
        .execute();
    }
    // The cell's answers (this query on this engine in this run, the new one included), read once for agreement and the latest check.
    const cell = await trx
      .selectFrom('engine_answers')
      .select(['id', 'brand_result', 'checked_at'])
      .where('run_id', '=', input.runId)
      .where('query_id', '=', input.queryId)
      .where('engine', '=', input.engine)
      .execute();
    await countAgreement(trx, { workspaceId, engine: input.engine, brandResult }, cell.filter((other) => other.id !== answerId));
    await noteEngineCheck(trx, { workspaceId, queryId: input.queryId, engine: input.engine, runId: input.runId, checkedAt, cellResults: cell.map((a) => a.brand_result) });
    await countOnRun(trx, clock, workspaceId, input.runId, answer === null);
    return { answerId, recorded: true, brandResult, checkedAt };
  });
}

const READ_RESULTS: readonly MentionResult[] = ['cited', 'mentioned', 'none'];

/**
 * Keeps agreement_daily exact as answers arrive: a cell (one query on one engine in one check run) counts once it has
 * two answers that were read (cited, mentioned or none: failures and pages without an answer have nothing to agree
 * on), on the day of its first answer, and agrees while every answer gives the brand the same result.
 */
async function countAgreement(
  trx: Kysely<Database>,
  answer: { workspaceId: string; engine: EngineName; brandResult: MentionResult },
  cellBefore: ReadonlyArray<{ brand_result: MentionResult; checked_at: number }>,
) {
  if (!READ_RESULTS.includes(answer.brandResult)) return;
  const others = cellBefore.filter((other) => READ_RESULTS.includes(other.brand_result));
  if (others.length === 0) return;
  const agreedBefore = others.length >= 2 && others.every((other) => other.brand_result === others[0]!.brand_result);
  const agreesNow = others.every((other) => other.brand_result === answer.brandResult);
  const cells = others.length === 1 ? 1 : 0;
  const agreeing = (agreesNow ? 1 : 0) - (agreedBefore ? 1 : 0);
  if (cells === 0 && agreeing === 0) return;
  const day = utcDay(Math.min(...others.map((other) => Number(other.checked_at))));
  await trx
    .insertInto('agreement_daily')
    .values({ workspace_id: answer.workspaceId, day, engine: answer.engine, cells, agreeing })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'day', 'engine']).doUpdateSet((eb) => ({
        cells: eb('agreement_daily.cells', '+', eb.ref('excluded.cells')),
        agreeing: eb('agreement_daily.agreeing', '+', eb.ref('excluded.agreeing')),
      })),
    )
    .execute();
}

export interface RankCheckInput {
  workspaceId: string;
  runId: string;
  queryId: string;
  searchEngine: 'google' | 'bing';
  /** The organic results, or null when the check failed (then `error` says why). */
  organic: OrganicResult[] | null;
  /** Google only: the AI overview the results page showed (or did not). */
  aiOverview?: AiOverview | null;
  error: CheckFailure | null;
}

/**
 * Stores one rank check: the workspace's best position in the top 30 (its website's host or a subdomain), the top 30
 * themselves, and for Google whether an AI overview showed and cited the workspace. A rank check already recorded
 * for this run, query and search engine is left as it is.
 */
export async function recordRankCheck(db: Kysely<Database>, clock: Clock, input: RankCheckInput): Promise<{ rankCheckId: string; recorded: boolean; position: number | null }> {
  return inTransaction(db, async (trx) => {
    const { workspaceId, organic } = input;
    await lockWorkspace(trx, workspaceId);
    const existing = await trx
      .selectFrom('rank_checks')
      .select(['id', 'position'])
      .where('workspace_id', '=', workspaceId)
      .where('run_id', '=', input.runId)
      .where('query_id', '=', input.queryId)
      .where('search_engine', '=', input.searchEngine)
      .executeTakeFirst();
    if (existing !== undefined) return { rankCheckId: existing.id, recorded: false, position: existing.position };

    const { brandDomain } = await loadSubjects(trx, workspaceId);
    const top = (organic ?? []).filter((r) => r.position >= 1 && r.position <= RANK_DEPTH).sort((a, b) => a.position - b.position);
    const ours = top.find((r) => isOnDomain(r.domain, brandDomain));
    const overview = input.searchEngine === 'google' && organic !== null ? (input.aiOverview ?? null) : null;
    const rankCheckId = newId('rnk');
    const checkedAt = clock.now();
    const aiOverview = overview === null ? null : { shown: overview.shown, citesUs: overview.shown && overview.references.some((c) => isOnDomain(c.domain, brandDomain)) };
    await trx
      .insertInto('rank_checks')
      .values({
        id: rankCheckId,
        workspace_id: workspaceId,
        run_id: input.runId,
        query_id: input.queryId,
        search_engine: input.searchEngine,
        position: ours?.position ?? null,
        url: ours?.url ?? null,
        results: toJson(top.map((r) => ({ position: r.position, url: r.url, domain: r.domain, title: r.title }))),
        ai_overview_shown: aiOverview === null ? null : aiOverview.shown ? 1 : 0,
        ai_overview_cites_us: aiOverview === null ? null : aiOverview.citesUs ? 1 : 0,
        error_class: organic === null ? (input.error?.errorClass ?? 'provider_error') : null,
        error_message: organic === null ? (input.error?.message ?? null) : null,
        checked_at: checkedAt,
      })
      .execute();
    if (organic !== null) {
      await noteRankCheck(trx, { workspaceId, queryId: input.queryId, searchEngine: input.searchEngine, position: ours?.position ?? null, url: ours?.url ?? null, checkedAt, overview: aiOverview });
    }
    await countOnRun(trx, clock, workspaceId, input.runId, organic === null);
    return { rankCheckId, recorded: true, position: ours?.position ?? null };
  });
}
