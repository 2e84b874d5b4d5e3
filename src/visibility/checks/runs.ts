import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CheckRunsTable, Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { lockWorkspace } from '../../workspace/workspaces.js';
import { newId } from '../../ids.js';
import { enqueueJobs, type NewJob } from '../../jobs/queue.js';
import type { Services } from '../../outsideServices.js';
import { ENGINE_NAMES, type EngineName } from '../engines/engine.js';
import { queueSearchConsoleSync } from '../searchConsole/connection.js';
import type { PaidProvider } from './prices.js';

export const CHECK_INTERVAL_MS = 7 * 86_400_000;
/** Google (with its AI overview) and Bing: one rank check each per tracked query. */
export const SEARCH_ENGINES = ['google', 'bing'] as const;

export type CheckTrigger = CheckRunsTable['trigger'];

export interface EngineCheckPayload {
  runId: string;
  queryId: string;
  engine: EngineName;
  runIndex: number;
}

export interface RankCheckPayload {
  runId: string;
  queryId: string;
  /** Engines whose first run is read from these same search pages (google_ai_overview, copilot): one paid call for both. */
  answers: EngineName[];
}

/** What a check run covers; left out, everything tracked and configured. */
export interface CheckSelection {
  queryIds?: readonly string[];
  engines?: readonly EngineName[];
  /** Google and Bing rank checks (when a SERP provider is configured); default true. */
  ranks?: boolean;
}

/** The planned run before it is queued: what a dry run reports. */
export interface CheckPlan {
  queryIds: string[];
  engines: EngineName[];
  notConfigured: EngineName[];
  runsPerQuery: number;
  rankChecks: boolean;
  /** Engines whose first run comes from the rank check's search page, not a call of its own. */
  readFromRankPages: EngineName[];
  /** Checks recorded on the run: engine answers plus rank checks. */
  planned: number;
  /** Paid calls by provider: engine calls, plus one SERP call per query and search engine. */
  calls: Array<{ provider: PaidProvider; calls: number }>;
}

export interface StartedRun {
  runId: string;
  /** Engine calls plus rank checks (two per query: Google and Bing). */
  planned: number;
  engines: EngineName[];
  /** Engines without settings: not asked, not counted, never reported as `none`. */
  notConfigured: EngineName[];
  rankChecks: boolean;
}

export function configuredEngines(services: Pick<Services, 'engines'>): { engines: EngineName[]; notConfigured: EngineName[] } {
  return {
    engines: ENGINE_NAMES.filter((name) => services.engines[name] !== undefined),
    notConfigured: ENGINE_NAMES.filter((name) => services.engines[name] === undefined),
  };
}

/** A check run's row; startCheckRun plans its checks, tests and benchmarks may fill one with recorded answers. */
export async function insertCheckRun(
  db: Kysely<Database>,
  clock: Clock,
  run: { workspaceId: string; trigger: CheckTrigger; engines: EngineName[]; runsPerQuery: number; planned: number },
): Promise<string> {
  const id = newId('run');
  const now = clock.now();
  await db
    .insertInto('check_runs')
    .values({
      id,
      workspace_id: run.workspaceId,
      trigger: run.trigger,
      state: run.planned === 0 ? 'done' : 'running',
      engines: JSON.stringify(run.engines),
      runs_per_query: run.runsPerQuery,
      planned: run.planned,
      completed: 0,
      failed: 0,
      created_at: now,
      finished_at: run.planned === 0 ? now : null,
    })
    .execute();
  return id;
}

/**
 * Plans a check of the tracked queries (hidden ones too: hiding an idea keeps its checks) on the configured engines,
 * `checkRunsPerQuery` times each, plus a Google and a Bing rank check per query when a SERP provider is configured.
 * An engine read from a search page (Google's AI overview, Copilot on Bing) takes its first run from the rank check's
 * page: the SERP is paid for once.
 */
export async function planCheckRun(db: Kysely<Database>, services: Services, workspaceId: string, selection: CheckSelection = {}): Promise<CheckPlan> {
  const configured = configuredEngines(services);
  const engines = selection.engines === undefined ? configured.engines : configured.engines.filter((engine) => selection.engines!.includes(engine));
  const runsPerQuery = services.checkRunsPerQuery;
  const rankChecks = services.serp !== undefined && (selection.ranks ?? true);
  let queries = db.selectFrom('queries').select('id').where('workspace_id', '=', workspaceId);
  if (selection.queryIds !== undefined) queries = queries.where('id', 'in', [...selection.queryIds]);
  const queryIds = selection.queryIds?.length === 0 ? [] : (await queries.orderBy('created_at').orderBy('id').execute()).map((row) => row.id);
  const readFromRankPages = rankChecks ? engines.filter((engine) => services.engines[engine]?.fromSerp !== undefined) : [];
  const n = queryIds.length;
  const calls: CheckPlan['calls'] = engines.map((engine) => ({ provider: engine, calls: n * (runsPerQuery - (readFromRankPages.includes(engine) ? 1 : 0)) }));
  if (rankChecks) calls.push({ provider: 'serp_google', calls: n }, { provider: 'serp_bing', calls: n });
  return {
    queryIds,
    engines,
    notConfigured: configured.notConfigured,
    runsPerQuery,
    rankChecks,
    readFromRankPages,
    planned: n * (engines.length * runsPerQuery + (rankChecks ? SEARCH_ENGINES.length : 0)),
    calls: calls.filter((entry) => entry.calls > 0),
  };
}

/** Queues a planned run: one durable job per engine call and one per query's rank checks, in the caller's transaction. */
export async function queueCheckRun(db: Kysely<Database>, clock: Clock, workspaceId: string, trigger: CheckTrigger, plan: CheckPlan): Promise<StartedRun> {
  const { engines, runsPerQuery, rankChecks, readFromRankPages } = plan;
  const runId = await insertCheckRun(db, clock, { workspaceId, trigger, engines, runsPerQuery, planned: plan.planned });
  const jobs: NewJob[] = [];
  for (const queryId of plan.queryIds) {
    for (const engine of engines) {
      for (let runIndex = readFromRankPages.includes(engine) ? 2 : 1; runIndex <= runsPerQuery; runIndex++) {
        const payload: EngineCheckPayload = { runId, queryId, engine, runIndex };
        jobs.push({ workspaceId, kind: 'engine_check', subjectId: queryId, payload: { ...payload } });
      }
    }
    if (rankChecks) {
      const payload: RankCheckPayload = { runId, queryId, answers: readFromRankPages };
      jobs.push({ workspaceId, kind: 'rank_check', subjectId: queryId, payload: { ...payload } });
    }
  }
  await enqueueJobs(db, clock, jobs);
  return { runId, planned: plan.planned, engines, notConfigured: plan.notConfigured, rankChecks };
}

export async function startCheckRun(db: Kysely<Database>, clock: Clock, services: Services, workspaceId: string, trigger: CheckTrigger, selection?: CheckSelection): Promise<StartedRun> {
  return queueCheckRun(db, clock, workspaceId, trigger, await planCheckRun(db, services, workspaceId, selection));
}

export interface RunProgress {
  runId: string;
  state: CheckRunsTable['state'];
  planned: number;
  completed: number;
  failed: number;
}

export async function readRunProgress(db: Kysely<Database>, runId: string): Promise<RunProgress> {
  const run = await db.selectFrom('check_runs').select(['id', 'state', 'planned', 'completed', 'failed']).where('id', '=', runId).executeTakeFirstOrThrow();
  return { runId: run.id, state: run.state, planned: run.planned, completed: run.completed, failed: run.failed };
}

/**
 * The weekly schedule, run by the job worker's sweep: a workspace with tracked queries whose last weekly run started
 * 7 or more days ago (or that has none) gets a `schedule` run; runs started on demand or by a rename do not move it. A brand-mention search asked for by a brand rename
 * (brands.mention_search_requested_at) after the last run started gets a `manual` run now: the search is a check
 * run with the new name. A weekly run also queues the Search Console sync of a connected workspace. Nothing starts
 * while no engine, no SERP provider and no Search Console client is configured.
 */
export async function runDueChecks(db: Kysely<Database>, clock: Clock, services: Services, logger?: Logger): Promise<{ started: string[] }> {
  const started: string[] = [];
  if (configuredEngines(services).engines.length === 0 && services.serp === undefined && services.searchConsole === undefined) return { started };
  const now = clock.now();
  const candidates = await db
    .selectFrom('brands')
    .select((eb) => [
      'brands.workspace_id',
      'brands.mention_search_requested_at',
      eb.selectFrom('check_runs').select((sub) => sub.fn.max('check_runs.created_at').as('last')).whereRef('check_runs.workspace_id', '=', 'brands.workspace_id').as('last_run_at'),
      eb
        .selectFrom('check_runs')
        .select((sub) => sub.fn.max('check_runs.created_at').as('last'))
        .whereRef('check_runs.workspace_id', '=', 'brands.workspace_id')
        .where('check_runs.trigger', '=', 'schedule')
        .as('last_weekly_at'),
    ])
    .where((eb) => eb.exists(eb.selectFrom('queries').select('queries.id').whereRef('queries.workspace_id', '=', 'brands.workspace_id')))
    .execute();
  for (const candidate of candidates) {
    if (dueTrigger(candidate, now) === undefined) continue;
    try {
      const runId = await db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, candidate.workspace_id);
        // Looked at again under the lock: another worker's sweep may have started the run meanwhile.
        const last = await trx
          .selectFrom('check_runs')
          .select((eb) => [eb.fn.max('created_at').as('any'), eb.fn.max(eb.case().when('trigger', '=', 'schedule').then(eb.ref('created_at')).end()).as('weekly')])
          .where('workspace_id', '=', candidate.workspace_id)
          .executeTakeFirst();
        const trigger = dueTrigger({ last_run_at: last?.any ?? null, last_weekly_at: last?.weekly ?? null, mention_search_requested_at: candidate.mention_search_requested_at }, now);
        if (trigger === undefined) return undefined;
        if (trigger === 'schedule' && services.searchConsole !== undefined) await queueSearchConsoleSync(trx, clock, candidate.workspace_id);
        return (await startCheckRun(trx, clock, services, candidate.workspace_id, trigger)).runId;
      });
      if (runId !== undefined) started.push(runId);
    } catch (error) {
      logger?.error({ err: error, workspaceId: candidate.workspace_id }, 'could not start the weekly checks of a workspace');
    }
  }
  return { started };
}

type Time = number | string | null;

function dueTrigger(times: { last_run_at: Time; last_weekly_at: Time; mention_search_requested_at: number | null }, now: number): CheckTrigger | undefined {
  const last = times.last_run_at === null ? null : Number(times.last_run_at);
  const mentionSearchAt = times.mention_search_requested_at;
  if (mentionSearchAt !== null && (last === null || mentionSearchAt > last)) return 'manual';
  if (times.last_weekly_at === null || now - Number(times.last_weekly_at) >= CHECK_INTERVAL_MS) return 'schedule';
  return undefined;
}
