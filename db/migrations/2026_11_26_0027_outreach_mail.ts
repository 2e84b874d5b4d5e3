import type { Kysely } from 'kysely';

/**
 * Outreach mail: the workspace's own mailbox, the messages of each prospect's thread, and the addresses never to write to.
 *
 * `outreach_mailboxes`: one per workspace; SMTP sends, IMAP (optional) reads replies. Passwords are sealed with
 * SECRETS_KEY. `imap_uid_validity`/`imap_last_uid`: where the last read of the inbox stopped.
 * `outreach_messages`: drafts, sends and received messages, one thread per prospect (`prospect_id`).
 * `outreach_suppressions`: lower-cased addresses that bounced, opted out or asked not to be written to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outreach_mailboxes')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('smtp_host', 'text', (c) => c.notNull())
    .addColumn('smtp_port', 'integer', (c) => c.notNull())
    .addColumn('smtp_secure', 'integer', (c) => c.notNull())
    .addColumn('smtp_user', 'text', (c) => c.notNull())
    .addColumn('smtp_password', 'text', (c) => c.notNull())
    .addColumn('imap_host', 'text')
    .addColumn('imap_port', 'integer')
    .addColumn('imap_secure', 'integer')
    .addColumn('imap_user', 'text')
    .addColumn('imap_password', 'text')
    .addColumn('daily_cap', 'integer', (c) => c.notNull())
    .addColumn('quiet_days', 'integer', (c) => c.notNull())
    .addColumn('imap_uid_validity', 'bigint')
    .addColumn('imap_last_uid', 'bigint')
    .addColumn('imap_checked_at', 'bigint')
    .addColumn('imap_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outreach_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('prospect_id', 'text', (c) => c.notNull().references('outreach_prospects.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('in_reply_to', 'text')
    .addColumn('references', 'text')
    .addColumn('queued_for', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('error', 'text')
    .addColumn('job_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outreach_messages_thread').on('outreach_messages').columns(['workspace_id', 'prospect_id', 'created_at']).execute();
  await db.schema.createIndex('outreach_messages_message_id').on('outreach_messages').columns(['workspace_id', 'message_id']).execute();
  await db.schema.createIndex('outreach_messages_sent').on('outreach_messages').columns(['workspace_id', 'direction', 'sent_at']).execute();

  await db.schema
    .createTable('outreach_suppressions')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('outreach_suppressions_pk', ['workspace_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outreach_suppressions').execute();
  await db.schema.dropTable('outreach_messages').execute();
  await db.schema.dropTable('outreach_mailboxes').execute();
}
