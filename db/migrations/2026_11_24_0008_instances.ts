import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../locks.js';

/** What several instances on one database share: named locks, sweep claims, job lease owners, provider slots, limiter counters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A row per lock name; taking the lock is an upsert of that row inside the caller's transaction.
  await db.schema
    .createTable('named_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .execute();

  // One row per periodic sweep: the instance whose update moves next_run_at forward runs it.
  await db.schema
    .createTable('sweep_claims')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .execute();

  // The attempt that holds a running job: every write the worker makes about the job names it.
  await db.schema.alterTable('jobs').addColumn('lease_token', 'text').execute();

  // Calls in flight to an outside provider, across every instance (the PostgreSQL store; Redis keeps its own).
  await db.schema
    .createTable('provider_slots')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_slots_pk', ['provider', 'holder'])
    .execute();

  // rate-limiter-flexible's PostgreSQL layout, created here rather than by the library at run time. Unused on SQLite.
  // Unlogged on PostgreSQL: every limited call writes a counter, and counters that live a minute need no WAL (a
  // crash empties the table, which frees the current windows early; nothing else is lost).
  let rateLimits = db.schema.createTable('rate_limits');
  if (isPostgres(db)) rateLimits = rateLimits.modifyFront(sql`unlogged`);
  await rateLimits
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['rate_limits', 'provider_slots', 'sweep_claims', 'named_locks']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('jobs').dropColumn('lease_token').execute();
}
