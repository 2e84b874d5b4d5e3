import type { Kysely } from 'kysely';

/**
 * What Sightline noticed on its own (src/changes): each change once per workspace (`dedupe_key`), the per-cell history
 * the citation rule reads ("cited in two consecutive runs, then not in two"), the workspace's rule per change kind, the
 * places alerts go (Slack, Discord and Teams incoming webhooks, webhook destinations), the alerts and digests sent
 * (recorded before sending, their outcome after, one row per recipient and batch or week so two instances send once),
 * and each person's mail settings with the token of their unsubscribe link.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .addColumn('query_id', 'text')
    .addColumn('run_id', 'text')
    .addColumn('detected_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('changes_once', ['workspace_id', 'dedupe_key'])
    .execute();
  await db.schema.createIndex('changes_by_time').on('changes').columns(['workspace_id', 'detected_at']).execute();

  await db.schema
    .createTable('change_cells')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('history', 'text', (c) => c.notNull())
    .addColumn('last_run_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_cells_pk', ['workspace_id', 'query_id', 'engine'])
    .execute();

  await db.schema
    .createTable('alert_rules')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('threshold', 'real')
    .addColumn('engines', 'text')
    .addColumn('query_ids', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_rules_pk', ['workspace_id', 'kind'])
    .execute();

  await db.schema
    .alterTable('workspaces')
    .addColumn('alerts_per_day', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();

  await db.schema
    .createTable('alert_channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text')
    .addColumn('destination_id', 'text')
    .addColumn('min_severity', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('alert_channels_by_workspace').on('alert_channels').columns(['workspace_id', 'removed_at']).execute();

  await db.schema
    .createTable('alert_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('recipient_key', 'text', (c) => c.notNull())
    .addColumn('batch_key', 'text', (c) => c.notNull())
    .addColumn('change_ids', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addUniqueConstraint('alert_sends_once', ['workspace_id', 'recipient_key', 'batch_key'])
    .execute();
  await db.schema.createIndex('alert_sends_by_time').on('alert_sends').columns(['workspace_id', 'recipient_key', 'created_at']).execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('digest', 'integer')
    .addColumn('alert_email', 'integer')
    .addColumn('digest_day', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('digest_hour', 'integer', (c) => c.notNull().defaultTo(8))
    .addColumn('time_zone', 'text')
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['workspace_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('digest_sends')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addPrimaryKeyConstraint('digest_sends_pk', ['workspace_id', 'user_id', 'week'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['digest_sends', 'notification_settings', 'alert_sends', 'alert_channels', 'alert_rules', 'change_cells', 'changes']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('workspaces').dropColumn('alerts_per_day').execute();
}
