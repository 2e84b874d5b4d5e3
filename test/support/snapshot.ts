import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Columns that move on reads (key use is recorded at most once a minute); a "nothing changed" check ignores them. */
const VOLATILE = new Set(['last_used_at']);

/**
 * The shared limiter store's counters and the instances' coordination rows: every call spends a limit, by design. The
 * writer-usage ledger likewise books every writer call, one that saves nothing included.
 */
const BOOKKEEPING = new Set(['rate_limits', 'provider_slots', 'named_locks', 'sweep_claims', 'writer_usage']);

/**
 * The tables of the test's own database. On PostgreSQL only its own schema's: kysely's introspection reads every
 * schema, and other test files create and drop theirs meanwhile.
 */
async function tableNames(db: Kysely<Database>): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return (await db.introspection.getTables()).map((table) => table.name);
  const own = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return own.rows.map((row) => row.name);
}

/** Every row of every data table (but `except`), for asserting that a refused or dry-run call changed nothing. */
export async function snapshot(db: Kysely<Database>, except: readonly string[] = []): Promise<Record<string, unknown[]>> {
  const tables = (await tableNames(db)).filter((name) => !name.startsWith('kysely_') && !BOOKKEEPING.has(name) && !except.includes(name)).sort();
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = (await db.selectFrom(table as keyof Database).selectAll().execute()) as Array<Record<string, unknown>>;
    dump[table] = rows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !VOLATILE.has(column))))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return dump;
}
