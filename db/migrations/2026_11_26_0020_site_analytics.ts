import type { Kysely } from 'kysely';

/**
 * The web-analytics provider each workspace connected (one at a time): which provider, its settings as JSON, its one
 * secret sealed (the Plausible or Umami Cloud API key, the Umami password, the Google refresh token), and the last
 * error reading it. Beside it, a Google Analytics authorization in progress: the OAuth state while the owner is on
 * Google's consent screen, then the grant and the properties it can read until the owner picks one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_analytics_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .execute();

  await db.schema
    .createTable('ga4_authorizations')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state_hash', 'text', (c) => c.unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('properties', 'text')
    .addColumn('properties_error', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ga4_authorizations').execute();
  await db.schema.dropTable('site_analytics_connections').execute();
}
