import { PostgresAdapter, type Kysely } from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { Database } from './schema.js';

/**
 * The dialect's helper that turns a subquery into a JSON array column, so a record and its lists come back in one
 * statement. SQLite's needs the subquery's columns named (no selectAll).
 */
export function jsonArrayFrom(db: Kysely<Database>): typeof sqliteJsonArrayFrom {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresJsonArrayFrom : sqliteJsonArrayFrom;
}

/** pg parses JSON columns; SQLite hands them back as text. */
export function jsonRows<T>(value: T[] | string): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}
