import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CheckRunsTable, Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { lockWorkspace } from '../../domain/workspaces.js';
import { newId } from '../../ids.js';
import { enqueueJob } from '../../jobs/queue.js';
import type { Services } from '../../services.js';
import { ENGINE_NAMES, type EngineName } from '../engines/engine.js';
import { queueSearchConsoleSync } from '../searchConsole/connection.js';

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
 * Plans a check of every tracked query (hidden ones too: hiding an idea keeps its checks) on every configured engine,
 * `checkRunsPerQuery` times each, plus a Google and a Bing rank check per query when a SERP provider is configured:
 * one durable job per engine call and one per query's rank checks, recorded in the caller's transaction.
 */
export async function startCheckRun(db: Kysely<Database>, clock: Clock, services: Services, workspaceId: string, trigger: CheckTrigger): Promise<StartedRun> {
  const { engines, notConfigured } = configuredEngines(services);
  const runsPerQuery = services.checkRunsPerQuery;
  const rankChecks = services.serp !== undefined;
  const queries = await db.selectFrom('queries').select('id').where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  const planned = queries.length * (engines.length * runsPerQuery + (rankChecks ? SEARCH_ENGINES.length : 0));
  const runId = await insertCheckRun(db, clock, { workspaceId, trigger, engines, runsPerQuery, planned });
  for (const { id: queryId } of queries) {
    for (const engine of engines) {
      for (let runIndex = 1; runIndex <= runsPerQuery; runIndex++) {
        const payload: EngineCheckPayload = { runId, queryId, engine, runIndex };
        await enqueueJob(db, clock, { workspaceId, kind: 'engine_check', subjectId: queryId, payload: { ...payload } });
      }
    }
    if (rankChecks) {
      const payload: RankCheckPayload = { runId, queryId };
      await enqueueJob(db, clock, { workspaceId, kind: 'rank_check', subjectId: queryId, payload: { ...payload } });
    }
  }
  return { runId, planned, engines, notConfigured, rankChecks };
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
 * The weekly schedule, run by the job worker's sweep: a workspace with tracked queries whose last check run started
 * 7 or more days ago (or that has none) gets a `schedule` run. A brand-mention search asked for by a brand rename
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
    ])
    .where((eb) => eb.exists(eb.selectFrom('queries').select('queries.id').whereRef('queries.workspace_id', '=', 'brands.workspace_id')))
    .execute();
  for (const candidate of candidates) {
    if (dueTrigger(candidate.last_run_at, candidate.mention_search_requested_at, now) === undefined) continue;
    try {
      const runId = await db.transaction().execute(async (trx) => {
        await lockWorkspace(trx, candidate.workspace_id);
        // Looked at again under the lock: another worker's sweep may have started the run meanwhile.
        const last = await trx.selectFrom('check_runs').select((eb) => eb.fn.max('created_at').as('last')).where('workspace_id', '=', candidate.workspace_id).executeTakeFirst();
        const trigger = dueTrigger(last?.last ?? null, candidate.mention_search_requested_at, now);
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

function dueTrigger(lastRunAt: number | string | null, mentionSearchAt: number | null, now: number): CheckTrigger | undefined {
  const last = lastRunAt === null ? null : Number(lastRunAt);
  if (mentionSearchAt !== null && (last === null || mentionSearchAt > last)) return 'manual';
  if (last === null || now - last >= CHECK_INTERVAL_MS) return 'schedule';
  return undefined;
}
