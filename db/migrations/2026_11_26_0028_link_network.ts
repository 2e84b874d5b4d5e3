import type { Kysely } from 'kysely';

/**
 * The link network among workspaces.
 *
 * `network_members`: one row per workspace that ever joined: whether it is a member now, the link attribute it chose
 * for the links it hosts, and what its last matching run found (or why it proposed nothing).
 * `network_credits`: the credit ledger; the balance is the sum of `amount`, never below zero.
 * `network_placements`: a link from a host workspace's published article to a target workspace's page, with both
 * sides' approvals and its state (`proposed`, `live`, `declined`, `retired`).
 * `network_embeddings`: each article's or page's embedding, kept with the hash of the text it was made from and the
 * model, so a text is embedded again only when it or the model changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('network_members')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('member', 'integer', (c) => c.notNull())
    .addColumn('link_attribute', 'text', (c) => c.notNull())
    .addColumn('first_joined_at', 'bigint', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addColumn('left_at', 'bigint')
    .addColumn('last_match_at', 'bigint')
    .addColumn('last_match_note', 'text')
    .execute();

  await db.schema
    .createTable('network_credits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('placement_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('network_credits_workspace').on('network_credits').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('network_placements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host_workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('host_article_id', 'text', (c) => c.notNull())
    .addColumn('host_url', 'text', (c) => c.notNull())
    .addColumn('target_workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_subject_id', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('target_title', 'text')
    .addColumn('anchor_text', 'text', (c) => c.notNull())
    .addColumn('anchor_kind', 'text', (c) => c.notNull())
    .addColumn('rel', 'text', (c) => c.notNull())
    .addColumn('similarity', 'real', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('host_approval_id', 'text')
    .addColumn('target_approval_id', 'text')
    .addColumn('host_approved_at', 'bigint')
    .addColumn('target_approved_at', 'bigint')
    .addColumn('proposed_at', 'bigint', (c) => c.notNull())
    .addColumn('live_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('end_reason', 'text')
    .execute();
  await db.schema.createIndex('network_placements_host').on('network_placements').columns(['host_workspace_id', 'state', 'proposed_at']).execute();
  await db.schema.createIndex('network_placements_target').on('network_placements').columns(['target_workspace_id', 'state', 'proposed_at']).execute();
  await db.schema.createIndex('network_placements_article').on('network_placements').columns(['host_article_id', 'state']).execute();

  await db.schema
    .createTable('network_embeddings')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('vector', 'text', (c) => c.notNull())
    .addColumn('embedded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_embeddings_pk', ['workspace_id', 'subject_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('network_embeddings').execute();
  await db.schema.dropTable('network_placements').execute();
  await db.schema.dropTable('network_credits').execute();
  await db.schema.dropTable('network_members').execute();
}
