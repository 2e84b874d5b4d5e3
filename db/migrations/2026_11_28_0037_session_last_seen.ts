import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../locks.js';

/**
 * sessions.last_seen_at is not null, as db/schema.ts always said: 0034 added it nullable to fill it in existing rows, and
 * every session made since writes it. Rows still null (made by an instance on a release before 0034) take created_at.
 * SQLite cannot add a constraint to a column, so there the table is made anew with the same columns and index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sessions set last_seen_at = created_at where last_seen_at is null`.execute(db);
  if (isPostgres(db)) {
    await sql`alter table sessions alter column last_seen_at set not null`.execute(db);
    return;
  }
  await db.schema
    .createTable('sessions_rebuilt')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into sessions_rebuilt (token_hash, user_id, created_at, expires_at, last_seen_at)
    select token_hash, user_id, created_at, expires_at, last_seen_at from sessions`.execute(db);
  await db.schema.dropTable('sessions').execute();
  await db.schema.alterTable('sessions_rebuilt').renameTo('sessions').execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
}
