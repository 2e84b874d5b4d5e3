import { type Kysely, sql } from 'kysely';
import { pageKey } from '../frozen.js';

/**
 * The service's own counter. There is no table of raw page views: each batch of events updates the visitor's current
 * session and the daily sums the reads use, so a read never walks events, whatever their number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A day's random salt; deleted once the day after it is over, so none lives longer than 48 hours.
  await db.schema
    .createTable('counter_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A visitor of the day (its hash changes with the salt) and its current session; pruned with the salts.
  await db.schema
    .createTable('counter_visitors')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_visitors_pk', ['workspace_id', 'visitor'])
    .execute();
  await db.schema.createIndex('counter_visitors_last_seen').on('counter_visitors').column('last_seen_at').execute();
  await db.schema
    .createTable('counter_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('bounced', 'integer', (c) => c.notNull())
    .addColumn('entry_path', 'text', (c) => c.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .execute();
  await db.schema.createIndex('counter_sessions_day').on('counter_sessions').columns(['workspace_id', 'day']).execute();
  await db.schema
    .createTable('counter_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('visitors', 'integer', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addColumn('bounces', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('engaged_views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_days_pk', ['workspace_id', 'day'])
    .execute();
  await db.schema
    .createTable('counter_page_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('engaged_views', 'integer', (c) => c.notNull())
    // Sessions that began on this page from an answer engine: which pages AI answers send people to.
    .addColumn('ai_entries', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('counter_page_days_pk', ['workspace_id', 'path', 'day'])
    .execute();
  await db.schema.createIndex('counter_page_days_day').on('counter_page_days').columns(['workspace_id', 'day', 'path', 'pageviews']).execute();
  // The same page views by week (Monday to Sunday, keyed by the Monday): a window's top pages read its whole weeks here
  // and only the days at its two ends from counter_page_days, so a 90-day window reads about a fifth of the rows.
  await db.schema
    .createTable('counter_page_weeks')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_page_weeks_pk', ['workspace_id', 'week', 'path'])
    .execute();
  await db.schema.createIndex('counter_page_weeks_views').on('counter_page_weeks').columns(['workspace_id', 'week', 'path', 'pageviews']).execute();
  await db.schema
    .createTable('counter_source_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // '' rather than null: a key column.
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addColumn('leads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_source_days_pk', ['workspace_id', 'day', 'source', 'engine'])
    .execute();
  // Each host that referred a session, with its first session: the site's referring domains as its visitors show them.
  await db.schema
    .createTable('counter_referrers')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_referrers_pk', ['workspace_id', 'host'])
    .execute();
  await db.schema.createIndex('counter_referrers_first_seen').on('counter_referrers').columns(['workspace_id', 'first_seen_at']).execute();
  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_url', 'text', (c) => c.notNull())
    .addColumn('form', 'text')
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text')
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .execute();
  await db.schema.createIndex('leads_newest').on('leads').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema
    .createTable('cited_pages_daily')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('page_key', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('answers', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('cited_pages_daily_pk', ['workspace_id', 'page_key', 'day', 'engine'])
    .execute();
  await backfillCitedPages(db);
  await db.schema.alterTable('analytics_sites').addColumn('loader_seen_at', 'bigint').execute();
  await db.schema.alterTable('analytics_sites').addColumn('cms_plugin_version', 'text').execute();
  // Who reported a crawler visit: the site's serving code (site_hook) or the CMS plugin; each is a source of its own.
  await db.schema.alterTable('crawler_visits').addColumn('reporter', 'text', (c) => c.notNull().defaultTo('site_hook')).execute();
  await db.schema.createIndex('crawler_visits_reporter').on('crawler_visits').columns(['workspace_id', 'reporter', 'visited_at']).execute();
}

/** The answers stored before this table, counted the way recordEngineAnswer counts new ones; read in pages of ids. */
export async function backfillCitedPages(db: Kysely<unknown>): Promise<void> {
  const sites = await sql<{ id: string; website_url: string }>`select id, website_url from workspaces`.execute(db);
  const domainOf = new Map(sites.rows.map((row) => [row.id, new URL(row.website_url).hostname.toLowerCase().replace(/^www\./, '')]));
  let after = '';
  for (;;) {
    const page = await sql<{ id: string; workspace_id: string; engine: string; citations: string; checked_at: number | string }>`
      select id, workspace_id, engine, citations, checked_at from engine_answers
      where id > ${after} and citations <> '[]' order by id limit 5000`.execute(db);
    if (page.rows.length === 0) return;
    const sums = new Map<string, { workspace_id: string; page_key: string; day: number; engine: string; answers: number }>();
    for (const answer of page.rows) {
      const domain = domainOf.get(answer.workspace_id);
      const day = Math.floor(Number(answer.checked_at) / 86_400_000) * 86_400_000;
      const cited = new Set(
        (JSON.parse(answer.citations) as Array<{ url: string; domain: string }>)
          .filter((citation) => domain !== undefined && (citation.domain === domain || citation.domain.endsWith(`.${domain}`)))
          .map((citation) => pageKey(citation.url)),
      );
      for (const key of cited) {
        const id = `${answer.workspace_id}\n${key}\n${day}\n${answer.engine}`;
        const sum = sums.get(id) ?? { workspace_id: answer.workspace_id, page_key: key, day, engine: answer.engine, answers: 0 };
        sum.answers += 1;
        sums.set(id, sum);
      }
    }
    for (const sum of sums.values()) {
      await sql`insert into cited_pages_daily (workspace_id, page_key, day, engine, answers)
        values (${sum.workspace_id}, ${sum.page_key}, ${sum.day}, ${sum.engine}, ${sum.answers})
        on conflict (workspace_id, page_key, day, engine) do update set answers = cited_pages_daily.answers + excluded.answers`.execute(db);
    }
    after = page.rows[page.rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cited_pages_daily').execute();
  await db.schema.dropIndex('crawler_visits_reporter').execute();
  await db.schema.alterTable('crawler_visits').dropColumn('reporter').execute();
  await db.schema.alterTable('analytics_sites').dropColumn('cms_plugin_version').execute();
  await db.schema.alterTable('analytics_sites').dropColumn('loader_seen_at').execute();
  for (const table of ['leads', 'counter_referrers', 'counter_source_days', 'counter_page_weeks', 'counter_page_days', 'counter_days', 'counter_sessions', 'counter_visitors', 'counter_salts']) {
    await db.schema.dropTable(table).execute();
  }
}
