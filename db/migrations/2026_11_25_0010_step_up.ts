import type { Kysely } from 'kysely';

/** The last step-up challenge sent for a grant: which scopes it named, and when. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_grants').addColumn('step_up_scopes', 'text').execute();
  await db.schema.alterTable('oauth_grants').addColumn('step_up_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_grants').dropColumn('step_up_at').execute();
  await db.schema.alterTable('oauth_grants').dropColumn('step_up_scopes').execute();
}
