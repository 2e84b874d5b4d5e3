import { sql, type Kysely } from 'kysely';
import { pageKey } from '../frozen.js';

/**
 * The two reports that list every tracked query read their order and a page's rows from indexes instead of joining
 * every query. Each tracked query has its `query_latest` row from the moment it is added, now carrying when it was
 * added, its wording's key, its Search Console impressions of the current period (kept by the sync, by rewording and
 * by a disconnection), when Google was last checked, and each AI engine's latest check (moved here from
 * `engine_latest`, which goes). Rankings read their sort key from that one table; Google versus AI walks the covering
 * index `query_latest_added`. Each Search Console sum names the tracked query of its wording (set by the sync and by
 * adding or rewording a query, cleared when the query goes), so that the untracked ones come most clicked first from
 * the partial index `search_console_queries_untracked`; and Search Console rows carry their page's key (the rule rank
 * checks use), so that the queries of the published articles' pages are a range of an index per page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('query_latest').addColumn('text_key', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('query_latest').addColumn('impressions', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('query_latest').addColumn('added_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('query_latest').addColumn('google_checked_at', 'bigint').execute();
  await db.schema.alterTable('query_latest').addColumn('engine_checks', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  await sql`insert into query_latest (workspace_id, query_id)
    select q.workspace_id, q.id from queries q
    where not exists (select 1 from query_latest l where l.workspace_id = q.workspace_id and l.query_id = q.id)`.execute(db);
  await sql`update query_latest set
    text_key = (select q.text_key from queries q where q.id = query_latest.query_id),
    added_at = (select q.created_at from queries q where q.id = query_latest.query_id),
    impressions = coalesce((select c.impressions from search_console_queries c join queries q on c.query = q.text_key
      where q.id = query_latest.query_id and c.workspace_id = query_latest.workspace_id and c.period = 'current'), 0),
    google_checked_at = (select r.checked_at from rank_latest r
      where r.workspace_id = query_latest.workspace_id and r.query_id = query_latest.query_id and r.search_engine = 'google')`.execute(db);
  const engineRows = await sql<EngineLatestRow>`select * from engine_latest order by workspace_id, query_id`.execute(db);
  const checksOfQuery = new Map<string, { workspaceId: string; queryId: string; checks: Record<string, StoredCheck> }>();
  for (const row of engineRows.rows) {
    const key = `${row.workspace_id}|${row.query_id}`;
    const entry = checksOfQuery.get(key) ?? { workspaceId: row.workspace_id, queryId: row.query_id, checks: {} };
    entry.checks[row.engine] = { run: row.run_id, result: row.result, at: Number(row.checked_at) };
    checksOfQuery.set(key, entry);
  }
  for (const { workspaceId, queryId, checks } of checksOfQuery.values()) {
    await sql`update query_latest set engine_checks = ${JSON.stringify(checks)} where workspace_id = ${workspaceId} and query_id = ${queryId}`.execute(db);
  }
  await db.schema.dropTable('engine_latest').execute();
  await db.schema.createIndex('query_latest_order').on('query_latest').columns(['workspace_id', 'google_position', 'impressions desc', 'text_key']).execute();
  // Covering: the state of every query (the summary) and of a page of them, in the order they were added, from the index alone.
  await db.schema
    .createIndex('query_latest_added')
    .on('query_latest')
    .columns(['workspace_id', 'added_at', 'query_id', 'google_checked', 'google_position', 'named', 'answered'])
    .execute();

  await db.schema.alterTable('search_console_queries').addColumn('query_id', 'text', (c) => c.references('queries.id').onDelete('set null')).execute();
  await sql`update search_console_queries set query_id = (select q.id from queries q
    where q.workspace_id = search_console_queries.workspace_id and q.text_key = search_console_queries.query)`.execute(db);
  await db.schema.createIndex('search_console_queries_query').on('search_console_queries').column('query_id').execute();
  await db.schema
    .createIndex('search_console_queries_untracked')
    .on('search_console_queries')
    .columns(['workspace_id', 'period', 'clicks desc', 'impressions desc', 'query'])
    .where(sql.ref('query_id'), 'is', null)
    .execute();

  await db.schema.alterTable('search_console_rows').addColumn('page_key', 'text', (c) => c.notNull().defaultTo('')).execute();
  const pages = await sql<{ page: string }>`select distinct page from search_console_rows`.execute(db);
  for (const { page } of pages.rows) await sql`update search_console_rows set page_key = ${pageKey(page)} where page = ${page}`.execute(db);
  await db.schema.dropIndex('search_console_rows_page').execute();
  await db.schema.createIndex('search_console_rows_page_key').on('search_console_rows').columns(['workspace_id', 'period', 'page_key', 'query']).execute();
}

interface EngineLatestRow {
  workspace_id: string;
  query_id: string;
  engine: string;
  run_id: string;
  result: string;
  checked_at: number | string;
}

interface StoredCheck {
  run: string;
  result: string;
  at: number;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('search_console_rows_page_key').execute();
  await db.schema.alterTable('search_console_rows').dropColumn('page_key').execute();
  await db.schema.createIndex('search_console_rows_page').on('search_console_rows').columns(['workspace_id', 'period', 'page']).execute();
  // SQLite cannot drop a column with a foreign key: the sums are made again as 0014 made them.
  await db.schema.dropTable('search_console_queries').execute();
  await db.schema
    .createTable('search_console_queries')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_console_queries_pk', ['workspace_id', 'period', 'query'])
    .execute();
  await sql`insert into search_console_queries (workspace_id, period, query, clicks, impressions)
    select workspace_id, period, query, sum(clicks), sum(impressions) from search_console_rows group by workspace_id, period, query`.execute(db);

  await db.schema
    .createTable('engine_latest')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull().references('queries.id').onDelete('cascade'))
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('engine_latest_pk', ['workspace_id', 'query_id', 'engine'])
    .execute();
  const queries = await sql<{ workspace_id: string; query_id: string; engine_checks: string }>`select workspace_id, query_id, engine_checks from query_latest`.execute(db);
  for (const query of queries.rows) {
    for (const [engine, check] of Object.entries(JSON.parse(query.engine_checks) as Record<string, StoredCheck>)) {
      await sql`insert into engine_latest (workspace_id, query_id, engine, run_id, result, checked_at)
        values (${query.workspace_id}, ${query.query_id}, ${engine}, ${check.run}, ${check.result}, ${check.at})`.execute(db);
    }
  }
  await db.schema.dropIndex('query_latest_added').execute();
  await db.schema.dropIndex('query_latest_order').execute();
  for (const column of ['engine_checks', 'google_checked_at', 'added_at', 'impressions', 'text_key']) {
    await db.schema.alterTable('query_latest').dropColumn(column).execute();
  }
}
