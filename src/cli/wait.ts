import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '../shared/objects.js';
import { operationOf, type CliCatalogue } from '../../adapters/cli.js';
import { CliError, EXIT, type ApiClient } from './client.js';

const JOB_POLL_MS = 1000;
const APPROVAL_POLL_MS = 2000;

interface JobRecord extends JsonObject {
  id: string;
  kind: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  maxAttempts: number;
  progress: string | null;
  error: string | null;
}

function jobStatus(job: JobRecord): string {
  const attempt = job.attempts > 1 ? ` (attempt ${job.attempts} of ${job.maxAttempts})` : '';
  const detail = job.state === 'running' && job.progress ? `: ${job.progress}` : job.state === 'queued' && job.error ? `; last try failed: ${job.error}` : '';
  return `${job.kind} ${job.id} ${job.state}${attempt}${detail}`;
}

/**
 * Follows a background job through get_job until it is done or failed, reporting each change of state or progress.
 * A failed job ends the command with exit code 1 and the job's error.
 */
export async function followJob(client: ApiClient, catalogue: CliCatalogue, jobId: string, report: (line: string) => void): Promise<JobRecord> {
  const getJob = operationOf(catalogue, 'get_job');
  const started = Date.now();
  let shown = '';
  for (;;) {
    const { job } = (await client.call(getJob, { jobId }).catch((error: unknown) => {
      if (error instanceof CliError && error.exitCode === EXIT.auth) throw new CliError(`--wait follows the job with get_job, which needs read:analytics: ${error.message}`, EXIT.auth);
      throw error;
    })) as { job: JobRecord };
    const status = jobStatus(job);
    if (status !== shown) report(`[${Math.round((Date.now() - started) / 1000)} s] ${status}`);
    shown = status;
    if (job.state === 'done') return job;
    if (job.state === 'failed') throw new CliError(`job ${job.id} (${job.kind}) failed: ${job.error ?? 'no reason recorded'}`, EXIT.failure);
    await sleep(JOB_POLL_MS);
  }
}

const UNDECIDED = new Set(['pending', 'running']);

/** Follows a change waiting for the owner through get_approval until it has run, failed, was declined or expired. */
export async function followApproval(client: ApiClient, catalogue: CliCatalogue, approvalId: string, report: (line: string) => void): Promise<JsonObject> {
  const getApproval = operationOf(catalogue, 'get_approval');
  let shown = '';
  for (;;) {
    const approval = await client.call(getApproval, { approvalId });
    const state = String(approval.state);
    if (state !== shown) report(`approval ${approvalId}: ${state}`);
    shown = state;
    if (!UNDECIDED.has(state)) {
      if (state === 'done') return approval;
      throw new CliError(`approval ${approvalId} ended ${state}${approval.error ? `: ${String(approval.error)}` : ''}`, EXIT.failure);
    }
    await sleep(APPROVAL_POLL_MS);
  }
}
