import type { Clock } from '../../clock.js';
import type { LimiterStore } from '../../limits/store.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import type { Scheduler, SchedulerAccount } from './scheduler.js';

/** What opening any workspace's scheduler needs of the service: where requests go, the shared limits, the clock. */
export interface SchedulerDeps {
  outbound: SafeFetcher;
  limits: LimiterStore;
  clock: Clock;
}

/** How a scheduling tool's declaration opens a workspace's account with it (`create`). */
export type SchedulerConstructor = (account: SchedulerAccount, deps: SchedulerDeps) => Scheduler;
