import type { SchedulerTool } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { LimiterStore } from '../../limits/store.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { BufferScheduler } from '../../integrations/buffer/scheduler.js';
import { PostizScheduler } from '../../integrations/postiz/scheduler.js';
import type { Scheduler, SchedulerAccount } from './scheduler.js';
import { TypefullyScheduler } from '../../integrations/typefully/scheduler.js';

export interface SchedulerDeps {
  outbound: SafeFetcher;
  limits: LimiterStore;
  clock: Clock;
}

export const SCHEDULER_NAMES: Record<SchedulerTool, string> = { postiz: 'Postiz', buffer: 'Buffer', typefully: 'Typefully' };

/** Whether the tool's API takes a thread as one post; Buffer's takes single posts only. */
export const TAKES_THREADS: Record<SchedulerTool, boolean> = { postiz: true, buffer: false, typefully: true };

/** The settings that point the service at each tool's API, for messages about them. */
export const SCHEDULER_SETTINGS: Record<SchedulerTool, string> = {
  postiz: 'POSTIZ_BASE_URL (the hosted API; a self-hosted Postiz is set per workspace on the scheduling tool page)',
  buffer: 'BUFFER_BASE_URL',
  typefully: 'TYPEFULLY_BASE_URL',
};

export function openScheduler(account: SchedulerAccount, deps: SchedulerDeps): Scheduler {
  switch (account.tool) {
    case 'postiz':
      return new PostizScheduler(account, deps.outbound, deps.limits, deps.clock);
    case 'buffer':
      return new BufferScheduler(account, deps.outbound, deps.clock);
    case 'typefully':
      return new TypefullyScheduler(account, deps.outbound, deps.clock);
  }
}
