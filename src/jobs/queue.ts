import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';

/** Every kind of durable job, in the order the API lists them; each has one handler, declared by its area (src/<area>/background.ts). */
export const JOB_KINDS = [
  'write_article',
  'deliver',
  'render_check',
  'check_run',
  'engine_check',
  'rank_check',
  'search_console_sync',
  'competitor_positioning',
  'cdn_sync',
  'outreach_send',
  'outreach_replies',
  'outreach_discover',
  'backlink_sync',
  'link_network_match',
  'backlink_verify',
  'social_search',
  'repurpose_push',
  'detect_changes',
  'send_alerts',
  'crawler_reach',
  'digest_send',
] as const;

export type JobKind = (typeof JOB_KINDS)[number];

export interface NewJob {
  workspaceId: string;
  kind: JobKind;
  /** The object the job works on (an article, a delivery): shown in list_jobs. */
  subjectId?: string;
  payload?: Record<string, unknown>;
  /** Not before this time; default now. */
  runAt?: number;
  maxAttempts?: number;
}

/**
 * Records a job in the caller's transaction, so that it exists exactly when the change that asked for it does. The
 * worker picks it up on its next look.
 */
export async function enqueueJob(db: Kysely<Database>, clock: Clock, job: NewJob): Promise<string> {
  const [id] = await enqueueJobs(db, clock, [job]);
  return id!;
}

/** Rows per insert statement: far below either database's limit on bound parameters (19 a row). */
const INSERT_CHUNK = 500;

/** Queues many jobs in few statements (a weekly check of thousands of queries is tens of thousands of jobs); their ids, in order. */
export async function enqueueJobs(db: Kysely<Database>, clock: Clock, jobs: readonly NewJob[]): Promise<string[]> {
  const now = clock.now();
  const rows = jobs.map((job) => ({
    id: newId('job'),
    workspace_id: job.workspaceId,
    kind: job.kind,
    subject_id: job.subjectId ?? null,
    payload: JSON.stringify(job.payload ?? {}),
    state: 'queued' as const,
    attempts: 0,
    max_attempts: job.maxAttempts ?? 3,
    run_at: job.runAt ?? now,
    lease_until: null,
    lease_token: null,
    progress: null,
    result: null,
    error: null,
    prompt_tokens: 0,
    completion_tokens: 0,
    created_at: now,
    started_at: null,
    finished_at: null,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db.insertInto('jobs').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  return rows.map((row) => row.id);
}

/**
 * The workspaces with a job of this kind waiting or running, or with `queuedSince` also one queued after that time:
 * the sweeps queue work for the workspaces not in it.
 */
export function workspacesWithJob(db: Kysely<Database>, kind: JobKind, queuedSince?: number) {
  return db
    .selectFrom('jobs')
    .select('jobs.workspace_id')
    .where('jobs.kind', '=', kind)
    .where((eb) => (queuedSince === undefined ? eb('jobs.state', 'in', ['queued', 'running']) : eb.or([eb('jobs.state', 'in', ['queued', 'running']), eb('jobs.created_at', '>', queuedSince)])));
}

/** The job of this kind waiting or running for the workspace, if any: work that needs one run at a time queues a new one only when there is none. */
export async function pendingJobId(db: Kysely<Database>, workspaceId: string, kind: JobKind): Promise<string | undefined> {
  const pending = await db
    .selectFrom('jobs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return pending?.id;
}
