import { sql, type Kysely } from 'kysely';
import { pageKey } from '../frozen.js';

/** How many of a query's latest Google checks with AI-overview data rank_latest keeps: twice the 8 runs the rate covers. */
const OVERVIEW_KEPT = 16;

/**
 * The latest check of each tracked query, kept at write time so that the reports that list every query (rankings,
 * Google versus AI) read one row per query and engine instead of searching a year of checks: `rank_latest` holds the
 * latest rank check that answered per search engine (with, for Google, the query's latest AI-overview observations),
 * `engine_latest` the latest check run's result per AI engine, and `query_latest` per query its Google place and
 * which engines' latest checks named the brand and which answered, as bit masks (bit i: the i-th of chatgpt,
 * perplexity, gemini, claude, google_ai_overview, copilot), so that Google versus AI states every query from one row. `search_console_queries`
 * sums each period's Search Console rows per query when a sync stores them, so that rankings sort by impressions
 * without summing rows. All are filled from what is stored so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rank_latest')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull().references('queries.id').onDelete('cascade'))
    .addColumn('search_engine', 'text', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('url', 'text')
    // The page's key whatever its spelling (pages.ts pageKey): which rows are the workspace's articles, in SQL.
    .addColumn('page_key', 'text')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('overview_checks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('rank_latest_pk', ['workspace_id', 'query_id', 'search_engine'])
    .execute();
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
    .createTable('query_latest')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull().references('queries.id').onDelete('cascade'))
    .addColumn('named', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('google_checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('google_position', 'integer')
    .addPrimaryKeyConstraint('query_latest_pk', ['workspace_id', 'query_id'])
    .execute();
  // Which tracked queries an article's page ranks for: a range of this index per page.
  await db.schema.createIndex('rank_latest_page').on('rank_latest').columns(['workspace_id', 'page_key']).execute();

  await sql`insert into rank_latest (workspace_id, query_id, search_engine, position, url, checked_at)
    select workspace_id, query_id, search_engine, position, url, checked_at from (
      select r.*, row_number() over (partition by workspace_id, query_id, search_engine order by checked_at desc, id desc) as n
      from rank_checks r where error_class is null) t
    where n = 1`.execute(db);
  const pages = await sql<{ url: string }>`select distinct url from rank_latest where url is not null`.execute(db);
  for (const { url } of pages.rows) await sql`update rank_latest set page_key = ${pageKey(url)} where url = ${url}`.execute(db);
  const observations = await sql<{ workspace_id: string; query_id: string; checked_at: number | string; shown: number; cites_us: number }>`
    select workspace_id, query_id, checked_at, shown, cites_us from (
      select workspace_id, query_id, checked_at, ai_overview_shown as shown, ai_overview_cites_us as cites_us,
        row_number() over (partition by workspace_id, query_id order by checked_at desc, id desc) as n
      from rank_checks where search_engine = 'google' and error_class is null and ai_overview_shown is not null) t
    where n <= ${OVERVIEW_KEPT}
    order by workspace_id, query_id, checked_at desc`.execute(db);
  const byQuery = new Map<string, { workspaceId: string; queryId: string; checks: Array<[number, number, number]> }>();
  for (const row of observations.rows) {
    const key = `${row.workspace_id} ${row.query_id}`;
    const entry = byQuery.get(key) ?? { workspaceId: row.workspace_id, queryId: row.query_id, checks: [] };
    entry.checks.push([Number(row.checked_at), Number(row.shown), Number(row.cites_us)]);
    byQuery.set(key, entry);
  }
  for (const entry of byQuery.values()) {
    await sql`update rank_latest set overview_checks = ${JSON.stringify(entry.checks)}
      where workspace_id = ${entry.workspaceId} and query_id = ${entry.queryId} and search_engine = 'google'`.execute(db);
  }

  // The latest answer of a query on an engine names the latest run; the result is the best of that run's answers.
  await sql`insert into engine_latest (workspace_id, query_id, engine, run_id, result, checked_at)
    select l.workspace_id, l.query_id, l.engine, l.run_id,
      (select case max(case a.brand_result when 'cited' then 4 when 'mentioned' then 3 when 'none' then 2 when 'not_shown' then 1 else 0 end)
          when 4 then 'cited' when 3 then 'mentioned' when 2 then 'none' when 1 then 'not_shown' else 'failed' end
        from engine_answers a where a.run_id = l.run_id and a.query_id = l.query_id and a.engine = l.engine),
      l.checked_at
    from (
      select workspace_id, query_id, engine, run_id, checked_at,
        row_number() over (partition by workspace_id, query_id, engine order by checked_at desc, id desc) as n
      from engine_answers) l
    where l.n = 1`.execute(db);
  const bit = sql.raw(
    "case engine when 'chatgpt' then 1 when 'perplexity' then 2 when 'gemini' then 4 when 'claude' then 8 when 'google_ai_overview' then 16 when 'copilot' then 32 else 0 end",
  );
  await sql`insert into query_latest (workspace_id, query_id, named, answered)
    select workspace_id, query_id,
      sum(case when result in ('cited', 'mentioned') then ${bit} else 0 end),
      sum(case when result in ('cited', 'mentioned', 'none', 'not_shown') then ${bit} else 0 end)
    from engine_latest group by workspace_id, query_id`.execute(db);
  await sql`insert into query_latest (workspace_id, query_id, google_checked, google_position)
    select workspace_id, query_id, 1, position from rank_latest where search_engine = 'google'
    on conflict (workspace_id, query_id) do update set google_checked = 1, google_position = excluded.google_position`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('query_latest').execute();
  await db.schema.dropTable('engine_latest').execute();
  await db.schema.dropTable('search_console_queries').execute();
  await db.schema.dropTable('rank_latest').execute();
}
