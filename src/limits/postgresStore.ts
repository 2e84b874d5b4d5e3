import type { Kysely } from 'kysely';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { withNamedLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { cached } from './memoryStore.js';
import { LeasedSlots, type SlotLedger } from './leasedSlots.js';
import { Limiter, type LimiterStore, type LimitRule, type ProviderSlots } from './store.js';

/** The table the migrations create in rate-limiter-flexible's layout. */
const TABLE = 'rate_limits';
const CLEANUP_EVERY_MS = 5 * 60_000;
/** Counters whose window ended this long ago are deleted; none of the rules has a longer window. */
const KEEP_EXPIRED_MS = 3_600_000;

/** DATABASE_URL is PostgreSQL and REDIS_URL is not set: counters and provider slots in the service's own database. */
export class PostgresLimiterStore implements LimiterStore {
  readonly name = 'the PostgreSQL database';
  private readonly limiters = new Map<string, Limiter>();
  private readonly ledger: SlotLedger;
  private readonly cleanup: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    db: Kysely<Database>,
  ) {
    this.ledger = {
      // Under the provider's lock, so that two instances counting the live leases at once cannot both take the last slot.
      tryTake: (provider, holder, limit, leaseMs) =>
        withNamedLock(db, `slots:${provider}`, Date.now(), async (trx) => {
          const now = Date.now();
          await trx.deleteFrom('provider_slots').where('provider', '=', provider).where('lease_until', '<', now).execute();
          const held = await trx.selectFrom('provider_slots').select((eb) => eb.fn.countAll<number | string>().as('n')).where('provider', '=', provider).executeTakeFirstOrThrow();
          if (Number(held.n) >= limit) return false;
          await trx.insertInto('provider_slots').values({ provider, holder, lease_until: now + leaseMs }).execute();
          return true;
        }),
      renew: async (provider, holder, leaseMs) => {
        await db.updateTable('provider_slots').set({ lease_until: Date.now() + leaseMs }).where('provider', '=', provider).where('holder', '=', holder).execute();
      },
      give: async (provider, holder) => {
        await db.deleteFrom('provider_slots').where('provider', '=', provider).where('holder', '=', holder).execute();
      },
    };
    // rate-limiter-flexible would start one cleanup timer per limiter; one for the table is enough.
    this.cleanup = setInterval(() => {
      pool.query(`DELETE FROM ${TABLE} WHERE expire < $1`, [Date.now() - KEEP_EXPIRED_MS]).catch(() => {});
    }, CLEANUP_EVERY_MS).unref();
  }

  limiter(rule: LimitRule): Limiter {
    return cached(this.limiters, rule, () =>
      new Limiter(
        rule,
        new RateLimiterPostgres({
          storeClient: this.pool,
          storeType: 'pool',
          tableName: TABLE,
          tableCreated: true,
          clearExpiredByTimeout: false,
          keyPrefix: rule.prefix,
          points: rule.points,
          duration: rule.durationSeconds,
        }),
        this.name,
      ),
    );
  }

  slots(provider: string, limit: number): ProviderSlots {
    return new LeasedSlots(this.ledger, this.name, provider, limit);
  }

  async close(): Promise<void> {
    clearInterval(this.cleanup);
  }
}
