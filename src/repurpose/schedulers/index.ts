import type { SchedulerTool } from '../../../db/schema.js';
import { providersOf } from '../../integrations/providers.js';
import type { SchedulerDeps } from './constructor.js';
import type { Scheduler, SchedulerAccount } from './scheduler.js';

export const SCHEDULER_NAMES: Record<SchedulerTool, string> = { postiz: 'Postiz', buffer: 'Buffer', typefully: 'Typefully' };

/** Whether the tool's API takes a thread as one post; Buffer's takes single posts only. */
export const TAKES_THREADS: Record<SchedulerTool, boolean> = { postiz: true, buffer: false, typefully: true };

/** The settings that point the service at each tool's API, for messages about them. */
export const SCHEDULER_SETTINGS: Record<SchedulerTool, string> = {
  postiz: 'POSTIZ_BASE_URL (the hosted API; a self-hosted Postiz is set per workspace on the scheduling tool page)',
  buffer: 'BUFFER_BASE_URL',
  typefully: 'TYPEFULLY_BASE_URL',
};

/** The account's tool, opened by its declaration in PROVIDERS. */
export function openScheduler(account: SchedulerAccount, deps: SchedulerDeps): Scheduler {
  const provider = providersOf('scheduler').find((declared) => declared.id === account.tool);
  if (provider === undefined) throw new Error(`no scheduling tool is declared as ${account.tool}`);
  return provider.create(account, deps);
}
