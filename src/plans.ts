/**
 * The one place where plans and their numbers live. The per-key request limit applies to every
 * request a key makes, on every surface; the other limits are reported by get_billing as usage
 * against the plan.
 */
export interface PlanLimits {
  /** Requests per key per minute, across REST, MCP and CLI together. */
  requestsPerMinute: number;
  /** Members plus pending invites. */
  seats: number;
  articlesPerMonth: number;
  trackedQueries: number;
  competitors: number;
}

export const PLANS = {
  trial: { requestsPerMinute: 60, seats: 2, articlesPerMonth: 4, trackedQueries: 25, competitors: 3 },
  starter: { requestsPerMinute: 120, seats: 3, articlesPerMonth: 12, trackedQueries: 100, competitors: 5 },
  growth: { requestsPerMinute: 300, seats: 10, articlesPerMonth: 30, trackedQueries: 300, competitors: 10 },
  scale: { requestsPerMinute: 1200, seats: 50, articlesPerMonth: 120, trackedQueries: 1000, competitors: 10 },
} as const satisfies Record<string, PlanLimits>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];
export const DEFAULT_PLAN: PlanName = 'trial';

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}
