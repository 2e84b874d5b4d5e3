import { type Kysely, sql } from 'kysely';
import type { Database, EngineName } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { shareOfVoice } from '../visibility/metrics/shareOfVoice.js';
import { visibilityScore } from '../visibility/metrics/score.js';
import { changeBetween } from '../visibility/metrics/wilson.js';
import { metricWindow, windowRecord, type MetricDays, type MetricWindow } from '../visibility/metrics/window.js';
import { DAY_MS, isoDate } from '../shared/time.js';
import { aiFunnel } from './funnel.js';
import type { SiteAnalyticsServices } from './providers/connections.js';

export interface ReportDeps {
  db: Kysely<Database>;
  services: SiteAnalyticsServices;
  /** The answer engines configured on this server (the score says which were not checked). */
  engines: readonly EngineName[];
  workspaceId: string;
  now: number;
}

const previousOf = (window: MetricWindow): MetricWindow => ({ days: window.days, from: window.from - window.days * DAY_MS, to: window.from - DAY_MS });

async function articlesPublished(db: Kysely<Database>, workspaceId: string, window: MetricWindow): Promise<number> {
  const row = await db
    .selectFrom('articles')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('published_at', '>=', window.from)
    .where('published_at', '<', window.to + DAY_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function leadCounts(db: Kysely<Database>, workspaceId: string, window: MetricWindow) {
  const row = await db
    .selectFrom('counter_source_days')
    .select([
      (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('leads'), eb.lit(0)).as('all'),
      (eb) => eb.fn.coalesce(eb.fn.sum<number | string>(sql<number>`case when source = 'ai' then leads else 0 end`), eb.lit(0)).as('ai'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', isoDate(window.from))
    .where('day', '<=', isoDate(window.to))
    .executeTakeFirstOrThrow();
  return { total: Number(row.all), fromAi: Number(row.ai) };
}

/**
 * Links first seen in the window (by the index's first-seen date, or when the service recorded a placed link), and in
 * the window before; null with the reason while the workspace has no backlink data at all.
 */
async function backlinksGained(db: Kysely<Database>, workspaceId: string, window: MetricWindow, before: MetricWindow) {
  const row = await db
    .selectFrom('backlinks')
    .select([
      (eb) => eb.fn.coalesce(eb.fn.sum<number | string>(sql<number>`case when discovered_at >= ${window.from} then 1 else 0 end`), eb.lit(0)).as('count'),
      (eb) => eb.fn.coalesce(eb.fn.sum<number | string>(sql<number>`case when discovered_at < ${window.from} then 1 else 0 end`), eb.lit(0)).as('previous'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('discovered_at', '>=', before.from)
    .where('discovered_at', '<', window.to + DAY_MS)
    .executeTakeFirstOrThrow();
  const any = await db.selectFrom('backlink_tallies').select('links').where('workspace_id', '=', workspaceId).where('links', '>', 0).limit(1).executeTakeFirst();
  if (any === undefined) {
    return { count: null, previous: null, reason: 'no backlink data yet: the operator configures the backlink index (BACKLINKS_* or SERP_*) or loads a Common Crawl release, or links are placed through outreach or the link network' };
  }
  return { count: Number(row.count), previous: Number(row.previous), reason: null };
}

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

/**
 * The period's summary in words, from the figures alone: every number in it is one of the figures beside it, so the
 * text can be read aloud or pasted into a report without checking it against them.
 */
function narrative(summary: Omit<Awaited<ReturnType<typeof buildSummary>>, 'narrative'>): string {
  const { visibility, shareOfVoice: voice, articlesPublished: articles, aiTraffic, crawls, leads, backlinksGained: links } = summary;
  const parts: string[] = [];
  if (visibility.score === null) parts.push('No AI answers were checked in the period, so there is no visibility score.');
  else {
    const trend = visibility.change === 'up' ? 'up from' : visibility.change === 'down' ? 'down from' : visibility.previousScore === null ? null : 'level with';
    parts.push(`Visibility score ${visibility.score}${trend === null || visibility.previousScore === null ? '' : `, ${trend} ${visibility.previousScore}`}.`);
  }
  if (voice.share !== null) parts.push(`Share of voice ${Math.round(voice.share * 1000) / 10} %${voice.change === null ? '' : ` (${voice.change})`}.`);
  parts.push(`${articles.count} article${articles.count === 1 ? '' : 's'} published (${signed(articles.count - articles.previous)}).`);
  parts.push(`${aiTraffic.visits} visit${aiTraffic.visits === 1 ? '' : 's'} from AI answers (${signed(aiTraffic.visits - aiTraffic.previous)}), ${crawls.count} AI-crawler visit${crawls.count === 1 ? '' : 's'}.`);
  parts.push(`${leads.total} lead${leads.total === 1 ? '' : 's'}, ${leads.fromAi} from AI answers.`);
  if (links.count !== null) parts.push(`${links.count} backlink${links.count === 1 ? '' : 's'} gained (${signed(links.count - links.previous)}).`);
  return parts.join(' ');
}

async function buildSummary(deps: ReportDeps, days: MetricDays) {
  const { db, workspaceId, now } = deps;
  const window = metricWindow(days, now);
  const before = previousOf(window);
  const query = { workspaceId, now, days };
  const previousQuery = { workspaceId, now: now - window.days * DAY_MS, days };
  const [score, previousScore, voice, previousVoice, articles, previousArticles, funnel, previousFunnel, leads, previousLeads, links] = await Promise.all([
    visibilityScore(db, deps.engines, query),
    visibilityScore(db, deps.engines, previousQuery),
    shareOfVoice(db, query),
    shareOfVoice(db, previousQuery),
    articlesPublished(db, workspaceId, window),
    articlesPublished(db, workspaceId, before),
    aiFunnel(deps, days),
    aiFunnel({ ...deps, now: now - window.days * DAY_MS }, days),
    leadCounts(db, workspaceId, window),
    leadCounts(db, workspaceId, before),
    backlinksGained(db, workspaceId, window, before),
  ]);
  const brandShare = voice.subjects.find((subject) => subject.isBrand)!.share;
  const previousBrandShare = previousVoice.subjects.find((subject) => subject.isBrand)!.share;
  return {
    window: windowRecord(window),
    previousWindow: windowRecord(before),
    visibility: {
      score: score.score,
      range: score.range,
      previousScore: previousScore.score,
      previousRange: previousScore.range,
      change: changeBetween(previousScore.range, score.range),
      definition: score.definition,
    },
    shareOfVoice: {
      share: brandShare.rate,
      interval: brandShare.interval,
      previousShare: previousBrandShare.rate,
      previousInterval: previousBrandShare.interval,
      change: changeBetween(previousBrandShare.interval, brandShare.interval),
      definition: voice.definition,
    },
    articlesPublished: { count: articles, previous: previousArticles },
    aiTraffic: { visits: funnel.aiVisits.count, previous: previousFunnel.aiVisits.count, source: funnel.aiVisits.source, definition: funnel.aiVisits.definition },
    crawls: { count: funnel.crawls.count, previous: previousFunnel.crawls.count, source: funnel.crawls.source, definition: funnel.crawls.definition },
    leads: { total: leads.total, fromAi: leads.fromAi, previousTotal: previousLeads.total, previousFromAi: previousLeads.fromAi },
    backlinksGained: links,
  };
}

/** The executive summary of the period against the one before: every figure computed, the words made from them. */
export async function reportsSummary(deps: ReportDeps, days: MetricDays) {
  const summary = await buildSummary(deps, days);
  return { ...summary, narrative: narrative(summary) };
}

const WINS_PER_KIND = 5;

/**
 * The period's top wins, each with the rows behind it: queries an engine began to cite (no citation of the brand for
 * that query on that engine before the window), the pages whose visits from AI answers grew most, and hosts that
 * first referred visitors in the window.
 */
export async function reportsWins(deps: Pick<ReportDeps, 'db' | 'workspaceId' | 'now'>, days: MetricDays) {
  const { db, workspaceId } = deps;
  const window = metricWindow(days, deps.now);
  const before = previousOf(window);
  const end = window.to + DAY_MS;
  const [firstCitations, pages, referrers] = await Promise.all([
    db
      .selectFrom('engine_answers as a')
      .innerJoin('queries as q', 'q.id', 'a.query_id')
      .select(['a.query_id', 'a.engine', 'q.text', (eb) => eb.fn.min('a.checked_at').as('first_cited_at')])
      .where('a.workspace_id', '=', workspaceId)
      .where('a.checked_at', '>=', window.from)
      .where('a.checked_at', '<', end)
      .where('a.brand_result', '=', 'cited')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('engine_answers as earlier')
              .select('earlier.id')
              .whereRef('earlier.workspace_id', '=', 'a.workspace_id')
              .whereRef('earlier.query_id', '=', 'a.query_id')
              .whereRef('earlier.engine', '=', 'a.engine')
              .where('earlier.checked_at', '<', window.from)
              .where('earlier.brand_result', '=', 'cited'),
          ),
        ),
      )
      .groupBy(['a.query_id', 'a.engine', 'q.text'])
      .orderBy('first_cited_at', 'desc')
      .orderBy('a.query_id')
      .orderBy('a.engine')
      .limit(WINS_PER_KIND)
      .execute(),
    db
      .selectFrom('counter_page_days')
      .select([
        'path',
        (eb) => eb.fn.sum<number | string>(sql<number>`case when day >= ${isoDate(window.from)} then ai_entries else 0 end`).as('current'),
        (eb) => eb.fn.sum<number | string>(sql<number>`case when day < ${isoDate(window.from)} then ai_entries else 0 end`).as('previous'),
      ])
      .where('workspace_id', '=', workspaceId)
      .where('day', '>=', isoDate(before.from))
      .where('day', '<=', isoDate(window.to))
      .where('ai_entries', '>', 0)
      .groupBy('path')
      .execute(),
    db
      .selectFrom('counter_referrers')
      .select(['host', 'first_seen_at', 'sessions'])
      .where('workspace_id', '=', workspaceId)
      .where('first_seen_at', '>=', window.from)
      .where('first_seen_at', '<', end)
      .orderBy('sessions', 'desc')
      .orderBy('host')
      .limit(WINS_PER_KIND)
      .execute(),
  ]);
  const answerIds = await Promise.all(
    firstCitations.map((row) =>
      db
        .selectFrom('engine_answers')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('checked_at', '=', Number(row.first_cited_at))
        .executeTakeFirstOrThrow(),
    ),
  );
  const growth = pages
    .map((row) => ({ path: row.path, current: Number(row.current), previous: Number(row.previous) }))
    .filter((row) => row.current > row.previous)
    .sort((a, b) => b.current - b.previous - (a.current - a.previous) || b.current - a.current || a.path.localeCompare(b.path))
    .slice(0, WINS_PER_KIND);
  return {
    window: windowRecord(window),
    definition:
      'newlyCited: a tracked query an answer engine cited the brand for in the window, with no citation for that query on that engine before it (answerId: the first citing answer, see list_citations). ' +
      'aiTrafficGrowth: pages where more sessions began from AI answers than in the same number of days before (own counter). ' +
      "newReferrers: hosts whose first referred session to the site fell in the window (own counter). At most five of each.",
    newlyCited: firstCitations.map((row, i) => ({
      queryId: row.query_id,
      query: row.text,
      engine: row.engine,
      firstCitedAt: toIso(Number(row.first_cited_at)),
      answerId: answerIds[i]!.id,
    })),
    aiTrafficGrowth: growth.map((row) => ({ path: row.path, aiVisits: row.current, previousAiVisits: row.previous, growth: row.current - row.previous })),
    newReferrers: referrers.map((row) => ({ host: row.host, firstSeenAt: toIso(Number(row.first_seen_at)), sessions: row.sessions })),
  };
}
