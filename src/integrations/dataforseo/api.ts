import { z } from 'zod';
import { providerLimits } from '../../limits/providerLimits.js';
import type { LimiterStore, ProviderSlots } from '../../limits/store.js';
import { EngineError } from '../../visibility/engines/engine.js';
import { type EngineTuning, ProviderHttp, TransientEngineError } from '../../visibility/engines/providerHttp.js';

/** An account at DataForSEO (or a server speaking its v3 API): where it lives, HTTP Basic credentials, its per-minute allowance. */
export interface DataForSeoAccount {
  baseUrl: string;
  login: string;
  password: string;
  perMinute: number;
}

// DataForSEO answers HTTP 200 for most failures; its own status_code says what happened (docs: appendix/errors).
const OK = 20000;
/** "No Search Results": an empty answer, not a failure. */
const NO_RESULTS = 40102;
/** Per-minute rate limit, and more than 30 simultaneous requests. */
const RATE_LIMITED = new Set([40202, 40209]);
/** Worth another attempt: the search engine or a task failed on their side, or the service is busy or updating. */
const TRANSIENT = new Set([40101, 40103, 50000, 50301, 50303, 50401]);

const taskSchema = z.object({
  status_code: z.number(),
  status_message: z.string().nullish(),
  result: z.array(z.unknown()).nullish(),
});
const envelopeSchema = z.object({
  version: z.string().nullish(),
  status_code: z.number(),
  status_message: z.string().nullish(),
  tasks: z.array(taskSchema).nullish(),
});

/** The one task's answer: its result list (empty for "no results") and the API version that gave it. */
export interface TaskAnswer {
  result: unknown[];
  version: string;
}

function statusProblem(code: number, message: string | null | undefined): string {
  return `DataForSEO status ${code}: ${message ?? 'no message'}`;
}

/**
 * Reads the envelope of a one-task request: a request- or task-level status other than OK is thrown as an EngineError,
 * a TransientEngineError (retried) when another attempt may succeed.
 */
export function readTask(json: unknown): TaskAnswer {
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('DataForSEO', 'bad_response', 'DataForSEO answered without status_code');
  const envelope = parsed.data;
  const task = envelope.tasks?.[0];
  const code = envelope.status_code !== OK ? envelope.status_code : (task?.status_code ?? envelope.status_code);
  const message = envelope.status_code !== OK ? envelope.status_message : task?.status_message;
  if (code === OK && task === undefined) throw new EngineError('DataForSEO', 'bad_response', 'DataForSEO answered without a task');
  const version = `dataforseo-${envelope.version ?? 'v3'}`;
  if (code === NO_RESULTS) return { result: [], version };
  if (RATE_LIMITED.has(code)) throw new TransientEngineError('DataForSEO', 'rate_limited', statusProblem(code, message));
  if (TRANSIENT.has(code)) throw new TransientEngineError('DataForSEO', 'provider_error', statusProblem(code, message));
  if (code !== OK) throw new EngineError('DataForSEO', 'provider_error', statusProblem(code, message));
  return { result: task?.result ?? [], version };
}

/**
 * Live endpoints of one DataForSEO account: one task per request, HTTP Basic authentication, the envelope read by
 * `readTask`, timeouts and retries of ProviderHttp. Every call waits for a slot under `limitName` in the shared
 * limiter store (concurrency and per-minute pace): clients of the same account pass the same name, so together they
 * stay within the account's limits.
 */
export class DataForSeoApi {
  private readonly http: ProviderHttp;
  private readonly slots: ProviderSlots;
  private readonly authorization: string;

  constructor(
    private readonly account: DataForSeoAccount,
    tuning: EngineTuning,
    store: Pick<LimiterStore, 'slots' | 'limiter'>,
    limitName: string,
  ) {
    this.http = new ProviderHttp('DataForSEO', tuning);
    this.slots = providerLimits(store, limitName, { concurrency: tuning.concurrency, perMinute: account.perMinute });
    this.authorization = `Basic ${Buffer.from(`${account.login}:${account.password}`).toString('base64')}`;
  }

  /** POSTs one task to `path` (e.g. `/v3/backlinks/summary/live`) and hands its answer to `read`. */
  async post<T>(path: string, task: Record<string, unknown>, read: (answer: TaskAnswer) => T): Promise<{ value: T; latencyMs: number }> {
    return this.slots.run(() =>
      this.http.postJson({ url: `${this.account.baseUrl}${path}`, headers: { authorization: this.authorization }, body: [task] }, (json) => read(readTask(json))),
    );
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
