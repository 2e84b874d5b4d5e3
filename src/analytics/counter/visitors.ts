import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';

const DAY_MS = 86_400_000;
/** A session's visitor may be gone this long before the next page view starts a new session. */
export const SESSION_GAP_MS = 30 * 60_000;

/** The UTC day of a time, YYYY-MM-DD: the key of the daily sums and salts. */
export function dayKey(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The day's random salt, shared by every instance through the database. Created by whichever instance needs it first;
 * on that day's first use the salts of the days before yesterday are deleted, and with them the visitor hashes they
 * made (they can never match again), so no salt outlives the day after its own: at most 48 hours.
 */
export class DailySalt {
  private current: { day: string; salt: string } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async today(): Promise<string> {
    const now = this.clock.now();
    const day = dayKey(now);
    if (this.current?.day === day) return this.current.salt;
    await this.db
      .insertInto('counter_salts')
      .values({ day, salt: randomBytes(32).toString('base64url'), created_at: now })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await this.db.selectFrom('counter_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
    await forgetOldVisitors(this.db, now);
    this.current = { day, salt: row.salt };
    return row.salt;
  }
}

/**
 * Salts of the days before yesterday, and the visitors of past days: their hashes were made with another day's salt, so
 * no event can match them again. Run on each day's first event and by an hourly sweep, for days without events.
 */
export async function forgetOldVisitors(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('counter_salts').where('day', '<', dayKey(now - DAY_MS)).execute();
  await db.deleteFrom('counter_visitors').where('last_seen_at', '<', Date.parse(`${dayKey(now)}T00:00:00Z`)).execute();
}

/** A visitor for one day: SHA-256 of the day's salt, the site, the client address and its user agent (128 bits kept). */
export function visitorHash(salt: string, siteId: string, address: string, userAgent: string): string {
  return createHash('sha256').update(`${salt}\n${siteId}\n${address}\n${userAgent}`).digest('base64url').slice(0, 22);
}
