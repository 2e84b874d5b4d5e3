import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Services } from '../outsideServices.js';
import type { JobKind } from './queue.js';
import type { Sweep } from './sweeps.js';
import type { JobHandler } from './worker.js';

/** What a sweep may use: the running service's store, clock, providers, log and settings. */
export interface SweepContext {
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  logger: Logger;
  config: Config;
}

/**
 * What one area runs in the background: the handlers of its job kinds and its sweeps. Each area declares its own
 * (`src/<area>/background.ts`), so the worker's list grows by an area, not by every job an area adds.
 */
export interface AreaBackground {
  jobs: Partial<Record<JobKind, JobHandler>>;
  sweeps?: (context: SweepContext) => Sweep[];
}
