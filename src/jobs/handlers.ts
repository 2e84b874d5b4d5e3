import { ANALYTICS_BACKGROUND } from '../analytics/background.js';
import { BACKLINKS_BACKGROUND } from '../backlinks/background.js';
import { CHANGES_BACKGROUND } from '../changes/background.js';
import { CONTENT_BACKGROUND } from '../content/background.js';
import { NETWORK_BACKGROUND } from '../network/background.js';
import { OUTREACH_BACKGROUND } from '../outreach/background.js';
import { PUBLISHING_BACKGROUND } from '../publishing/background.js';
import { REPURPOSE_BACKGROUND } from '../repurpose/background.js';
import { SOCIAL_BACKGROUND } from '../social/background.js';
import { VISIBILITY_BACKGROUND } from '../visibility/background.js';
import type { AreaBackground, SweepContext } from './background.js';
import { JOB_KINDS, type JobKind } from './queue.js';
import type { Sweep } from './sweeps.js';
import type { JobHandler } from './worker.js';

/** Every area that runs work in the background. */
const AREAS: readonly AreaBackground[] = [
  CONTENT_BACKGROUND,
  PUBLISHING_BACKGROUND,
  VISIBILITY_BACKGROUND,
  ANALYTICS_BACKGROUND,
  OUTREACH_BACKGROUND,
  BACKLINKS_BACKGROUND,
  NETWORK_BACKGROUND,
  SOCIAL_BACKGROUND,
  REPURPOSE_BACKGROUND,
  CHANGES_BACKGROUND,
];

/** The one handler of every job kind; a kind no area handles, or two handle, stops the service from starting. */
function handlersOf(areas: readonly AreaBackground[]): Record<JobKind, JobHandler> {
  const handlers: Partial<Record<JobKind, JobHandler>> = {};
  for (const area of areas) {
    for (const [kind, handler] of Object.entries(area.jobs) as Array<[JobKind, JobHandler]>) {
      if (handlers[kind] !== undefined) throw new Error(`job kind ${kind} has two handlers`);
      handlers[kind] = handler;
    }
  }
  const missing = JOB_KINDS.filter((kind) => handlers[kind] === undefined);
  if (missing.length > 0) throw new Error(`no handler for the job kinds ${missing.join(', ')}`);
  return handlers as Record<JobKind, JobHandler>;
}

export const JOB_HANDLERS: Record<JobKind, JobHandler> = handlersOf(AREAS);

/** Every area's sweeps, for the running service. */
export function areaSweeps(context: SweepContext): Sweep[] {
  return AREAS.flatMap((area) => area.sweeps?.(context) ?? []);
}
