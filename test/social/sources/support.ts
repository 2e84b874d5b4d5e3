import type { DatabaseHandle } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { ManualClock } from '../../../src/clock.js';
import type { SourceTuning } from '../../../src/social/sources/http.js';
import { SourcePauses } from '../../../src/social/sources/pauses.js';
import { openTestDatabase } from '../../support/database.js';

/** Short timeouts and backoff, so retries and timeouts take milliseconds. */
export const TUNING: SourceTuning = { timeoutMs: 2000, retries: 2, backoffMs: 5 };

/** 2026-11-26 12:00 UTC: the test clock's start. */
export const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

/** A migrated test database (SQLite, or PostgreSQL with TEST_DATABASE_URL), a manual clock and the pauses over them. */
export async function pausesOnTestDatabase(): Promise<{ database: DatabaseHandle; clock: ManualClock; pauses: SourcePauses }> {
  const database = await openTestDatabase();
  await migrateToLatest(database);
  const clock = new ManualClock(NOW);
  return { database, clock, pauses: new SourcePauses(database.db, clock) };
}

export { failureOf as failure } from '../../support/failure.js';
