import { z } from 'zod';
import { listJobs } from '../../src/domain/jobs/listJobs.js';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import type { JobKind } from '../../src/jobs/queue.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

const JOB_KINDS = Object.keys(JOB_HANDLERS) as [JobKind, ...JobKind[]];

export default defineTool({
  operationId: 'list_jobs',
  method: 'GET',
  path: '/api/v1/jobs',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    "List the workspace's recent background jobs (article writing, webhook deliveries and their retries, render checks, answer-engine and rank checks, Search Console syncs), newest first.\n" +
    'Use it to follow an article being written or a delivery, or to find why one failed. A failed job keeps its error; a queued one shows when it runs next (runAt).\n' +
    'Returns { jobs: [{ id, kind, subjectId (the article, delivery or tracked query), state (queued, running, done, failed), attempts, maxAttempts, progress, error, result, ' +
    'promptTokens, completionTokens (writer-model usage), createdAt, runAt, startedAt, finishedAt }] }.',
  annotations: { title: 'List jobs', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    limit: z.int().min(1).max(200).default(50).describe('How many jobs, 1 to 200 (default 50).'),
    kind: z.enum(JOB_KINDS).optional().describe(`Only jobs of this kind: ${JOB_KINDS.join(', ')}.`),
    state: z.enum(['queued', 'running', 'done', 'failed']).optional().describe('Only jobs in this state.'),
  }),
  output: z.object({
    jobs: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(JOB_KINDS),
        subjectId: z.string().nullable().describe('The article, delivery or tracked query it works on.'),
        state: z.enum(['queued', 'running', 'done', 'failed']),
        attempts: z.int(),
        maxAttempts: z.int(),
        progress: z.string().nullable(),
        error: z.string().nullable(),
        result: z.unknown().describe("The job's outcome once done (its shape depends on kind), else null."),
        promptTokens: z.int(),
        completionTokens: z.int(),
        createdAt: isoTime(),
        runAt: isoTime(),
        startedAt: isoTime().nullable(),
        finishedAt: isoTime().nullable(),
      }),
    ),
  }),
  confirm: 'none',
  handler: (ctx, input) => listJobs(ctx.db, ctx.workspaceId, input),
});
