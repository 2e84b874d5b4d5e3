import type { Kysely } from 'kysely';

/**
 * When an OAuth grant's access token last called the service, to the minute, as api_keys.last_used_at: the Connected
 * AI apps page shows it so a person can tell a live app from a forgotten one before revoking it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_grants').addColumn('last_used_at', 'bigint').execute();
}
