import { createHash } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ServiceError, type ErrorBody } from '../errors.js';

/** A counted allowance: `points` calls per `durationSeconds` for each key, in a fixed window that starts at the first call. */
export interface LimitRule {
  /** Names the counter in the store; two rules with one prefix share their counts. */
  prefix: string;
  points: number;
  durationSeconds: number;
}

export interface LimitState {
  allowed: boolean;
  remaining: number;
  /** Until the window ends (and, when refused, until a call is allowed again). */
  resetMs: number;
}

/** What the service answers when it cannot count: no call runs unlimited because the counter is out of reach. */
export class LimiterStoreUnavailableError extends ServiceError {
  static readonly RETRY_AFTER_MS = 5000;

  constructor(store: string, cause: unknown) {
    super(503, `rate limits cannot be checked right now: ${store}, which keeps them, does not answer, so nothing was done; retry shortly`);
    this.cause = cause;
  }

  override toBody(): ErrorBody {
    return { error: this.message, retryAfterMs: LimiterStoreUnavailableError.RETRY_AFTER_MS };
  }
}

/** One rule's counter in whichever store keeps them. */
export class Limiter {
  constructor(
    readonly rule: LimitRule,
    private readonly counter: RateLimiterAbstract,
    private readonly storeName: string,
  ) {}

  /** Spends `points` (a refused call spends them too: hammering does not shorten the wait). */
  async consume(key: string, points = 1): Promise<LimitState> {
    try {
      return this.state(true, await this.counter.consume(storedKey(key), points));
    } catch (outcome) {
      return this.state(false, this.result(outcome));
    }
  }

  /** The current state without spending; a key never seen has its whole allowance. */
  async peek(key: string): Promise<LimitState> {
    const res = await this.counter.get(storedKey(key)).catch((error: unknown) => {
      throw new LimiterStoreUnavailableError(this.storeName, error);
    });
    if (res === null) return { allowed: true, remaining: this.rule.points, resetMs: 0 };
    return this.state(res.remainingPoints > 0, res);
  }

  /** Forgets the key's count (a successful sign-in clears its failed attempts). */
  async reset(key: string): Promise<void> {
    await this.counter.delete(storedKey(key)).catch((error: unknown) => {
      throw new LimiterStoreUnavailableError(this.storeName, error);
    });
  }

  private result(outcome: unknown): RateLimiterRes {
    if (outcome instanceof RateLimiterRes) return outcome;
    throw new LimiterStoreUnavailableError(this.storeName, outcome);
  }

  private state(allowed: boolean, res: RateLimiterRes): LimitState {
    return { allowed, remaining: Math.max(0, res.remainingPoints), resetMs: Math.max(0, res.msBeforeNext) };
  }
}

/** Keys are emails, addresses or ids; the stores keep at most 255 characters, so anything long is kept by its hash. */
function storedKey(key: string): string {
  return key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Calls in flight at once to one outside provider, counted across every instance that shares the store. */
export interface ProviderSlots {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Where every limit and provider slot lives: memory (one process), Redis, or PostgreSQL. */
export interface LimiterStore {
  /** For logs and error messages: "memory", "Redis at REDIS_URL", "the PostgreSQL database". */
  readonly name: string;
  limiter(rule: LimitRule): Limiter;
  slots(provider: string, limit: number): ProviderSlots;
  close(): Promise<void>;
}
