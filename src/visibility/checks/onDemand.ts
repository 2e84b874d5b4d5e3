import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { BadInputError, NotFoundError, RateLimitedError } from '../../errors.js';
import { lockWorkspace } from '../../workspace/workspaces.js';
import { enqueueJob, pendingJobId } from '../../jobs/queue.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { Services } from '../../outsideServices.js';
import { ENGINE_NAMES, type EngineName } from '../engines/engine.js';
import { PRICES_AS_OF } from './prices.js';
import { configuredEngines, planCheckRun, queueCheckRun, type CheckPlan, type CheckSelection } from './runs.js';
import { nameList, settingsPattern } from '../../integrations/kit/declaration.js';
import { providerDeclaration } from '../../integrations/providers.js';

/** Check runs a workspace may start on demand in any hour (the weekly run comes on top). */
export const ON_DEMAND_RUNS_PER_HOUR = 2;
const HOUR_MS = 3_600_000;

const selectionSchema = z.object({
  queryIds: z.array(z.string()).optional(),
  engines: z.array(z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]])).optional(),
  ranks: z.boolean().optional(),
});

/** Why a selection cannot run: an engine the operator has not configured, or a query of no concern to the workspace (404). */
async function checkSelection(db: Kysely<Database>, services: Services, workspaceId: string, selection: CheckSelection): Promise<void> {
  const { notConfigured } = configuredEngines(services);
  const missing = (selection.engines ?? []).filter((engine) => notConfigured.includes(engine));
  if (missing.length > 0) {
    const serp = settingsPattern(providerDeclaration('serp'));
    const settings = missing.map((engine) =>
      engine === 'google_ai_overview' ? serp : engine === 'copilot' ? `${settingsPattern(providerDeclaration('copilot'))} or ${serp}` : settingsPattern(providerDeclaration(engine)),
    );
    throw BadInputError.field('engines', `${missing.join(', ')} not configured: the operator sets ${[...new Set(settings)].join(', ')}`);
  }
  if (selection.ranks === true && services.serp === undefined) throw BadInputError.field('ranks', `rank checks need the SERP provider: the operator sets ${nameList(providerDeclaration('serp').turnedOnBy)}`);
  if (selection.queryIds !== undefined) {
    const ids = [...new Set(selection.queryIds)];
    const found = await db.selectFrom('queries').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
    const unknown = ids.find((id) => !found.some((row) => row.id === id));
    if (unknown !== undefined) throw new NotFoundError('query', unknown);
  }
}

/** The run in progress: a queued or running on-demand job, or a check run still asking. */
async function runInProgress(db: Kysely<Database>, workspaceId: string): Promise<{ jobId: string | null; runId: string | null } | undefined> {
  const jobId = await pendingJobId(db, workspaceId, 'check_run');
  if (jobId !== undefined) return { jobId, runId: null };
  const run = await db.selectFrom('check_runs').select('id').where('workspace_id', '=', workspaceId).where('state', '=', 'running').orderBy('created_at', 'desc').executeTakeFirst();
  return run === undefined ? undefined : { jobId: null, runId: run.id };
}

function costOf(plan: CheckPlan, services: Services) {
  const providers = plan.calls.map(({ provider, calls }) => {
    const price = services.callPrices[provider];
    return { provider, calls, usdPerCall: price?.usdPerCall ?? null, usd: price === undefined ? null : Math.round(calls * price.usdPerCall * 10_000) / 10_000, basis: price?.basis ?? null };
  });
  const priced = providers.filter((entry) => entry.usd !== null);
  return {
    providers,
    knownUsd: Math.round(priced.reduce((sum, entry) => sum + entry.usd!, 0) * 10_000) / 10_000,
    unpricedCalls: providers.filter((entry) => entry.usd === null).reduce((sum, entry) => sum + entry.calls, 0),
    pricesAsOf: PRICES_AS_OF,
  };
}

/** The dry run: what would be checked, the provider calls and their known fees, as a sentence and as numbers. */
export async function describeVisibilityCheck(db: Kysely<Database>, services: Services, workspaceId: string, selection: CheckSelection) {
  await checkSelection(db, services, workspaceId, selection);
  const plan = await planCheckRun(db, services, workspaceId, selection);
  const cost = costOf(plan, services);
  const busy = await runInProgress(db, workspaceId);
  const details = { planned: plan.planned, cost, inProgress: busy ?? null };
  if (plan.queryIds.length === 0) return { note: 'Would start nothing: the workspace tracks no queries yet (add_query).', details };
  if (plan.planned === 0) return { note: 'Would start nothing: no engine and no SERP provider is configured.', details };
  const calls = cost.providers.map((p) => `${p.calls} ${p.provider}${p.usd === null ? ' (price unknown)' : ` ($${p.usd})`}`).join(', ');
  const shared = plan.readFromRankPages.length > 0 ? ` The first run of ${plan.readFromRankPages.join(' and ')} is read from the rank checks' pages, at no extra call.` : '';
  const note =
    `Would check ${plan.queryIds.length} ${plan.queryIds.length === 1 ? 'query' : 'queries'} on ${plan.engines.join(', ') || 'no engine'} (${plan.runsPerQuery} ${plan.runsPerQuery === 1 ? 'run' : 'runs'} each)${plan.rankChecks ? ' with Google and Bing ranks' : ''}: ` +
    `${plan.planned} checks, ${cost.providers.reduce((sum, p) => sum + p.calls, 0)} provider calls: ${calls}. ` +
    `Known fees $${cost.knownUsd} at published prices of ${PRICES_AS_OF}, model tokens not included.${shared}` +
    (busy === undefined ? '' : ' A check run is already in progress: confirming answers that one instead of starting another.');
  return { note, details };
}

/**
 * Queues an on-demand check run as a durable `check_run` job, under the workspace lock: a run already in progress
 * (queued, or still asking) is answered instead of starting another, and at most ON_DEMAND_RUNS_PER_HOUR start in any hour.
 */
export async function queueVisibilityCheck(db: Kysely<Database>, clock: Clock, services: Services, workspaceId: string, selection: CheckSelection) {
  await lockWorkspace(db, workspaceId);
  await checkSelection(db, services, workspaceId, selection);
  const plan = await planCheckRun(db, services, workspaceId, selection);
  const cost = costOf(plan, services);
  const busy = await runInProgress(db, workspaceId);
  if (busy !== undefined) return { started: false, jobId: busy.jobId, runId: busy.runId, planned: plan.planned, cost, note: 'a check run is already in progress: follow it instead' };
  if (plan.planned === 0) throw BadInputError.field(plan.queryIds.length === 0 ? 'queryIds' : 'engines', 'nothing to check: no tracked query, or no engine and no SERP provider configured');
  const since = clock.now() - HOUR_MS;
  const recent = await db
    .selectFrom('jobs')
    .select('created_at')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'check_run')
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  if (recent.length >= ON_DEMAND_RUNS_PER_HOUR) {
    const waitMs = Number(recent[recent.length - ON_DEMAND_RUNS_PER_HOUR]!.created_at) + HOUR_MS - clock.now();
    throw new RateLimitedError(`rate limited: at most ${ON_DEMAND_RUNS_PER_HOUR} check runs on demand an hour; retry in ${Math.ceil(waitMs / 60_000)} min`, waitMs);
  }
  const jobId = await enqueueJob(db, clock, { workspaceId, kind: 'check_run', payload: { ...selection } });
  return { started: true, jobId, runId: null, planned: plan.planned, cost, note: 'queued: get_job answers the runId once the checks are queued; list_jobs shows each check' };
}

/** Plans and queues the run the job was asked for, in one transaction; a run started meanwhile (the weekly one) is left to finish. */
export const checkRunJob: JobHandler = {
  async run(job, { db, clock, services }) {
    const selection = selectionSchema.parse(job.payload);
    return db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, job.workspaceId);
      const running = await trx.selectFrom('check_runs').select('id').where('workspace_id', '=', job.workspaceId).where('state', '=', 'running').executeTakeFirst();
      if (running !== undefined) return { runId: running.id, started: false, note: 'a check run was already in progress' };
      // Queries removed since the call are left out rather than failing the run.
      const plan = await planCheckRun(trx, services, job.workspaceId, selection);
      const started = await queueCheckRun(trx, clock, job.workspaceId, 'on_demand', plan);
      return { ...started, started: true };
    });
  },
};
