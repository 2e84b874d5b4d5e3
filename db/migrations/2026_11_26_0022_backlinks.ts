import type { Kysely } from 'kysely';

/**
 * Backlinks and the outreach pipeline.
 *
 * `backlinks`: one row per link (linking page, target page) a workspace knows of: found by the backlink index
 * (`index`), placed through outreach, placed by the owner (`managed`) or through the link network (`network`).
 * `backlink_measures`: the totals a provider measured for the whole site (indexed backlinks, referring domains), one
 * row per provider and measurement, so stats show the latest and its date.
 * `referring_domains`: the domains that link to a domain (the workspace's own or a competitor's), as a provider lists
 * them (DataForSEO, or the Common Crawl host graph); outreach reads competitors' referring domains as prospects.
 * `outreach_prospects`: sites the workspace may earn a link from, and where each stands.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backlinks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('linking_url', 'text', (c) => c.notNull())
    .addColumn('linking_domain', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('anchor_text', 'text', (c) => c.notNull())
    .addColumn('dofollow', 'integer', (c) => c.notNull())
    .addColumn('domain_authority', 'real')
    .addColumn('authority_metric', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('prospect_id', 'text')
    .addColumn('placement_id', 'text')
    .addColumn('discovered_at', 'bigint', (c) => c.notNull())
    .addColumn('placed_at', 'bigint')
    .addColumn('last_verified_at', 'bigint')
    .addColumn('lost_at', 'bigint')
    .addColumn('status_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('check_error', 'text')
    .addColumn('next_check_at', 'bigint')
    .execute();
  await db.schema.createIndex('backlinks_link').on('backlinks').columns(['workspace_id', 'linking_url', 'target_url']).unique().execute();
  await db.schema.createIndex('backlinks_newest').on('backlinks').columns(['workspace_id', 'discovered_at', 'id']).execute();
  await db.schema.createIndex('backlinks_by_status').on('backlinks').columns(['workspace_id', 'status', 'discovered_at', 'id']).execute();
  await db.schema.createIndex('backlinks_due').on('backlinks').columns(['next_check_at']).execute();

  await db.schema
    .createTable('backlink_measures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('indexed_backlinks', 'bigint')
    .addColumn('referring_domains', 'bigint')
    .addColumn('detail', 'text')
    .addColumn('measured_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backlink_measures_latest').on('backlink_measures').columns(['workspace_id', 'provider', 'measured_at']).execute();

  await db.schema
    .createTable('referring_domains')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('target_domain', 'text', (c) => c.notNull())
    .addColumn('referring_domain', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('links', 'bigint')
    .addColumn('rank', 'real')
    .addColumn('measured_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('referring_domains_pk', ['workspace_id', 'target_domain', 'provider', 'referring_domain'])
    .execute();

  await db.schema
    .createTable('outreach_prospects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('page_url', 'text')
    .addColumn('title', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text')
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('stage_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('contact_email', 'text')
    .addColumn('contact_name', 'text')
    .addColumn('contact_confidence', 'integer')
    .addColumn('contact_source', 'text')
    .addColumn('contact_found_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outreach_prospects_domain').on('outreach_prospects').columns(['workspace_id', 'domain']).unique().execute();
  await db.schema.createIndex('outreach_prospects_stage').on('outreach_prospects').columns(['workspace_id', 'stage', 'stage_changed_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outreach_prospects').execute();
  await db.schema.dropTable('referring_domains').execute();
  await db.schema.dropTable('backlink_measures').execute();
  await db.schema.dropTable('backlinks').execute();
}
