import type { Kysely } from 'kysely';

/**
 * The workspace's time zone (an IANA name): the dashboard shows every time in it, so a team reads one calendar.
 * Existing workspaces keep UTC, which is what the dashboard showed before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
}
