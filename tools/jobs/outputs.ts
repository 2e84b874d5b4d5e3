import { z } from 'zod';
import { JOB_KINDS } from '../../src/jobs/queue.js';
import { isoTime } from '../fields.js';

// A background job as list_jobs and get_job answer it.

export const jobState = z.enum(['queued', 'running', 'done', 'failed']);

export const job = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  subjectId: z.string().nullable().describe('The article, delivery or tracked query it works on.'),
  state: jobState,
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
});
