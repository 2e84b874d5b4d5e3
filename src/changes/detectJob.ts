import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { enqueueJob } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { queueCrawlerReach } from './crawlerReach.js';
import { RUN_DETECTORS } from './detectors/index.js';
import { recordChanges } from './record.js';
import { loadRules } from './rules.js';

export interface DetectChangesPayload {
  runId: string;
}

/**
 * Queued by the check that closes a run, in its transaction: every finished run is compared once, and the AI
 * crawlers' reach of the site is probed again beside it.
 */
export async function queueChangeDetection(db: Kysely<Database>, clock: Clock, workspaceId: string, runId: string): Promise<void> {
  const payload: DetectChangesPayload = { runId };
  await enqueueJob(db, clock, { workspaceId, kind: 'detect_changes', subjectId: runId, payload: { ...payload } });
  await queueCrawlerReach(db, clock, workspaceId);
}

/** The workspace's latest finished run created before `runId`. */
async function previousRun(db: Kysely<Database>, workspaceId: string, runId: string): Promise<string | null> {
  const run = await db.selectFrom('check_runs').select('created_at').where('id', '=', runId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (run === undefined) return null;
  const before = await db
    .selectFrom('check_runs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'done')
    .where('id', '!=', runId)
    .where('created_at', '<=', run.created_at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return before?.id ?? null;
}

/**
 * Compares a finished run with the one before, detector by detector, and records what the rules let through. Each
 * detector's changes are recorded in a transaction of their own with the state it keeps, and a change is recorded once
 * per dedupe key: a job that runs again after its worker died records nothing twice.
 */
export const detectChangesJob: JobHandler = {
  async run(job, deps) {
    const { runId } = job.payload as unknown as DetectChangesPayload;
    const previousRunId = await previousRun(deps.db, job.workspaceId, runId);
    const rules = await loadRules(deps.db, job.workspaceId);
    const recorded: Record<string, number> = {};
    for (const detector of RUN_DETECTORS) {
      await deps.progress(`comparing the run with the one before: ${detector.name}`);
      recorded[detector.name] = await deps.db.transaction().execute(async (trx) => {
        const changes = await detector.detect({ db: trx, clock: deps.clock, services: deps.services, workspaceId: job.workspaceId, runId, previousRunId, rules });
        return (await recordChanges(trx, deps.clock, job.workspaceId, changes, rules)).length;
      });
    }
    return { runId, previousRunId, recorded };
  },
};
