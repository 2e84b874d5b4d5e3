import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { Services } from '../../outsideServices.js';
import type { NoticedChange } from '../record.js';
import type { AlertRules } from '../rules.js';

/** What a detector reads: the run just finished and the finished run before it in the same workspace. */
export interface RunDetection {
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  workspaceId: string;
  runId: string;
  /** The workspace's latest finished run created before this one; null for its first run. */
  previousRunId: string | null;
  rules: AlertRules;
}

/**
 * One family of changes found by comparing runs. A detector only reads and reports; recording (once, by the rules)
 * is the job's. A detector that keeps state of its own between runs writes it keyed by the run, so running it twice
 * for one run reports the same changes and moves nothing.
 */
export interface ChangeDetector {
  name: string;
  detect(context: RunDetection): Promise<NoticedChange[]>;
}
