import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../locks.js';

/**
 * Backlinks and the outreach pipeline.
 *
 * `backlinks`: one row per link (linking page, target page) a workspace knows of: found by the backlink index
 * (`index`), placed through outreach, placed by the owner (`managed`) or through the link network (`network`).
 * `backlink_measures`: the totals a provider measured for the whole site (indexed backlinks, referring domains), one
 * row per provider and measurement, so stats show the latest and its date.
 * `backlink_tallies` and `backlink_domains`: the counts get_backlink_stats reads, kept by triggers on `backlinks` in the
 * same transaction as every write to it, whichever code writes: counting 100,000 rows per call would not answer in
 * 50 ms.
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
    .createTable('backlink_tallies')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('authority_metric', 'text', (c) => c.notNull())
    .addColumn('links', 'bigint', (c) => c.notNull())
    .addColumn('rated_links', 'bigint', (c) => c.notNull())
    .addColumn('authority_sum', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('backlink_tallies_pk', ['workspace_id', 'status', 'source', 'authority_metric'])
    .execute();
  await db.schema
    .createTable('backlink_domains')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('linking_domain', 'text', (c) => c.notNull())
    .addColumn('live_links', 'bigint', (c) => c.notNull())
    .addColumn('built_live_links', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('backlink_domains_pk', ['workspace_id', 'linking_domain'])
    .execute();
  // Stats count the live domains, and look among the built ones for social sites, without reading every domain.
  await db.schema.createIndex('backlink_domains_live').on('backlink_domains').columns(['workspace_id', 'live_links']).execute();
  await db.schema.createIndex('backlink_domains_built').on('backlink_domains').columns(['workspace_id', 'built_live_links', 'linking_domain']).execute();
  await createTallyTriggers(db);

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

/** A link that is there or being checked (not lost, not an outreach stage before placement); stats count only these for domains and authority. */
const LIVE = `('discovered', 'verified', 'placed', 'link_placed')`;

/** The tally changes of one row (`row` is NEW or OLD): added with sign 1, taken away with sign -1. */
function tallyStatements(row: 'NEW' | 'OLD', sign: 1 | -1): string {
  const live = `CASE WHEN ${row}.status IN ${LIVE} THEN 1 ELSE 0 END`;
  const builtLive = `CASE WHEN ${row}.status IN ${LIVE} AND ${row}.source <> 'index' THEN 1 ELSE 0 END`;
  const rated = `CASE WHEN ${row}.domain_authority IS NULL THEN 0 ELSE 1 END`;
  const authority = `COALESCE(${row}.domain_authority, 0)`;
  const tallyKey = `workspace_id = ${row}.workspace_id AND status = ${row}.status AND source = ${row}.source AND authority_metric = COALESCE(${row}.authority_metric, '')`;
  const domainKey = `workspace_id = ${row}.workspace_id AND linking_domain = ${row}.linking_domain`;
  if (sign === -1) {
    // Taking away never creates a row: the row it was added to is there (or its workspace is being deleted).
    return `
      UPDATE backlink_tallies SET links = links - 1, rated_links = rated_links - ${rated}, authority_sum = authority_sum - ${authority} WHERE ${tallyKey};
      UPDATE backlink_domains SET live_links = live_links - ${live}, built_live_links = built_live_links - ${builtLive} WHERE ${domainKey};`;
  }
  return `
    INSERT INTO backlink_tallies (workspace_id, status, source, authority_metric, links, rated_links, authority_sum)
      VALUES (${row}.workspace_id, ${row}.status, ${row}.source, COALESCE(${row}.authority_metric, ''), 1, ${rated}, ${authority})
      ON CONFLICT (workspace_id, status, source, authority_metric)
      DO UPDATE SET links = backlink_tallies.links + 1, rated_links = backlink_tallies.rated_links + excluded.rated_links, authority_sum = backlink_tallies.authority_sum + excluded.authority_sum;
    INSERT INTO backlink_domains (workspace_id, linking_domain, live_links, built_live_links)
      VALUES (${row}.workspace_id, ${row}.linking_domain, ${live}, ${builtLive})
      ON CONFLICT (workspace_id, linking_domain)
      DO UPDATE SET live_links = backlink_domains.live_links + excluded.live_links, built_live_links = backlink_domains.built_live_links + excluded.built_live_links;`;
}

/** The columns the tallies depend on: an update of any other (a verification time) fires nothing. */
const TALLIED_COLUMNS = 'workspace_id, linking_domain, status, source, authority_metric, domain_authority';

async function createTallyTriggers(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE FUNCTION backlinks_tally() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('UPDATE', 'DELETE') THEN ${tallyStatements('OLD', -1)}
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN ${tallyStatements('NEW', 1)}
          END IF;
          RETURN NULL;
        END $$`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER backlinks_tally AFTER INSERT OR DELETE OR UPDATE OF ${TALLIED_COLUMNS} ON backlinks FOR EACH ROW EXECUTE FUNCTION backlinks_tally()`).execute(db);
    return;
  }
  await sql.raw(`CREATE TRIGGER backlinks_tally_insert AFTER INSERT ON backlinks BEGIN ${tallyStatements('NEW', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER backlinks_tally_delete AFTER DELETE ON backlinks BEGIN ${tallyStatements('OLD', -1)} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER backlinks_tally_update AFTER UPDATE OF ${TALLIED_COLUMNS} ON backlinks BEGIN ${tallyStatements('OLD', -1)} ${tallyStatements('NEW', 1)} END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outreach_prospects').execute();
  await db.schema.dropTable('referring_domains').execute();
  await db.schema.dropTable('backlink_measures').execute();
  await db.schema.dropTable('backlinks').execute();
  if (isPostgres(db)) await sql`DROP FUNCTION backlinks_tally()`.execute(db);
  await db.schema.dropTable('backlink_domains').execute();
  await db.schema.dropTable('backlink_tallies').execute();
}
