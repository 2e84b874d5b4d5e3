import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { enqueueJob } from '../jobs/queue.js';

// Apart from the alert job itself, so that recording a change (which many areas do) pulls in nothing but the queue.

/** Attempts of one send_alerts job: each resends the batches still pending (429, 5xx, no answer). */
export const ALERT_JOB_ATTEMPTS = 6;

/**
 * Queues the workspace's alert job in the caller's transaction (recordChanges, when it recorded something). One job
 * waiting is enough, since it reads every change not yet sent when it runs: another is added only when none waits, and
 * one waiting for tomorrow (a recipient at its daily cap) is brought forward, as other recipients may have room.
 */
export async function queueAlerts(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<void> {
  const now = clock.now();
  const waiting = await db
    .selectFrom('jobs')
    .select(['id', 'run_at', 'attempts'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'send_alerts')
    .where('state', '=', 'queued')
    .orderBy('run_at')
    .limit(1)
    .executeTakeFirst();
  if (waiting === undefined) {
    await enqueueJob(db, clock, { workspaceId, kind: 'send_alerts', maxAttempts: ALERT_JOB_ATTEMPTS });
    return;
  }
  // A retry keeps its wait (a receiver's Retry-After); it reads the new changes too when it runs.
  if (waiting.run_at > now && waiting.attempts === 0) await db.updateTable('jobs').set({ run_at: now }).where('id', '=', waiting.id).where('state', '=', 'queued').execute();
}

/** Queues a later run of the alerts when none waits: the rest of a long batch, or tomorrow's first message. */
export async function queueLater(db: Kysely<Database>, clock: Clock, workspaceId: string, runAt: number): Promise<void> {
  const waiting = await db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('kind', '=', 'send_alerts').where('state', '=', 'queued').executeTakeFirst();
  if (waiting === undefined) await enqueueJob(db, clock, { workspaceId, kind: 'send_alerts', runAt, maxAttempts: ALERT_JOB_ATTEMPTS });
}
