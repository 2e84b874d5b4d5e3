import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `work` in a transaction that holds the lock called `name` until it commits, on every instance that shares the
 * database. Taking the lock is an upsert of the lock's row: PostgreSQL makes a second taker wait on that row until the
 * first commits, and SQLite's write lock does the same for every writer. Work done under it therefore sees everything
 * the previous holder committed, so "check, then create" inside it happens once.
 */
export async function withNamedLock<T>(db: Kysely<Database>, name: string, now: number, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await takeNamedLock(trx, name, now);
    return work(trx);
  });
}

/** Takes the lock called `name` in the caller's transaction (`trx` must be one); it is held until that commits. */
export async function takeNamedLock(trx: Kysely<Database>, name: string, now: number): Promise<void> {
  await trx
    .insertInto('named_locks')
    .values({ name, taken_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ taken_at: now }))
    .execute();
}

/** PostgreSQL can skip rows another transaction has locked (`FOR UPDATE SKIP LOCKED`); SQLite has one writer and no row locks. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
