import { RateLimitedError } from '../errors.js';
import type { Limiter, LimiterStore } from '../limits/store.js';
import { PLANS } from '../plans.js';
import type { Operation } from '../../tools/define.js';
import type { Principal } from '../auth/principal.js';

const WINDOW_SECONDS = 60;

export interface PolicyState {
  /** `plan` or `route`, the names used in the RateLimit headers. */
  name: 'plan' | 'route';
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetMs: number;
}

export interface LimitSubject {
  key: string;
  /** Requests per minute of the plan, or null when only route caps apply. */
  planQuota: number | null;
}

/**
 * What a call spends besides the plan: its operation's cap, counted under its name. Requests that are not operations
 * (MCP's tasks/* and resource reads) name the operation whose budget they share, or a cap of `plan`.
 */
export type CapPolicy = Pick<Operation, 'operationId' | 'cap'>;

interface Policy {
  name: PolicyState['name'];
  quota: number;
  limiter: Limiter;
}

export class RateLimitExceeded extends RateLimitedError {
  constructor(
    message: string,
    retryAfterMs: number,
    readonly policies: PolicyState[],
  ) {
    super(message, retryAfterMs);
  }
}

/**
 * Per-key limits: the plan's requests per minute and the route's own cap, both consumed on every call. The counters
 * live in the shared limiter store, so REST and MCP calls, on any instance, spend the same budget.
 */
export class RateLimits {
  constructor(private readonly store: LimiterStore) {}

  private policy(name: Policy['name'], prefix: string, quota: number): Policy {
    return { name, quota, limiter: this.store.limiter({ prefix, points: quota, durationSeconds: WINDOW_SECONDS }) };
  }

  /** A caller's budget: the plan's for a credential; a `public` operation's calls count per client address, route cap only. */
  static subject(caller: Principal | { address: string }): LimitSubject {
    return 'address' in caller ? { key: `address:${caller.address}`, planQuota: null } : { key: caller.credentialId, planQuota: PLANS[caller.plan].requestsPerMinute };
  }

  /** Consumes one point from each policy that applies; throws a 429 carrying the longest wait when any is spent. */
  async consume(subject: LimitSubject, operation: CapPolicy): Promise<PolicyState[]> {
    const policies: Policy[] = [];
    if (subject.planQuota !== null) policies.push(this.policy('plan', `plan:${subject.planQuota}`, subject.planQuota));
    if (typeof operation.cap === 'number') policies.push(this.policy('route', `route:${operation.operationId}`, operation.cap));

    const results = await Promise.all(policies.map((p) => p.limiter.consume(subject.key)));
    const states: PolicyState[] = [];
    let exhausted: { policy: Policy; waitMs: number } | undefined;
    results.forEach((result, i) => {
      const policy = policies[i]!;
      states.push({ name: policy.name, quota: policy.quota, windowSeconds: WINDOW_SECONDS, remaining: result.remaining, resetMs: result.resetMs });
      if (!result.allowed && (exhausted === undefined || result.resetMs > exhausted.waitMs)) exhausted = { policy, waitMs: result.resetMs };
    });
    if (exhausted !== undefined) {
      const { policy, waitMs } = exhausted;
      const what =
        policy.name === 'plan'
          ? `the plan limit of ${policy.quota} requests per minute for this key`
          : `the cap of ${policy.quota} calls per minute on ${operation.operationId}`;
      throw new RateLimitExceeded(`rate limited: ${what} is used up; retry in ${Math.ceil(waitMs / 1000)} s`, Math.max(1, waitMs), states);
    }
    return states;
  }
}
