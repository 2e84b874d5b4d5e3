import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DAY_MS, isoDate } from '../shared/time.js';
import { metricWindow, windowRecord, type MetricDays, type MetricWindow } from '../visibility/metrics/window.js';
import { CRAWLER_SOURCE_DEFINITIONS } from './crawlerTraffic.js';
import { siteAnalyticsProvider, type SiteAnalyticsServices } from './providers/connections.js';
import { humanTrafficSource } from './sources.js';
import { crawlerVisits, providerFailure } from './trafficOverview.js';

interface EngineCount {
  engine: string;
  count: number;
}

const byCount = (a: EngineCount, b: EngineCount) => b.count - a.count || a.engine.localeCompare(b.engine);

/** Sessions and leads from answer engines in the window, per engine, from the own counter's daily sums. */
async function counterAiFigures(db: Kysely<Database>, workspaceId: string, window: MetricWindow) {
  const rows = await db
    .selectFrom('counter_source_days')
    .select(['engine', (eb) => eb.fn.sum<number | string>('sessions').as('sessions'), (eb) => eb.fn.sum<number | string>('leads').as('leads')])
    .where('workspace_id', '=', workspaceId)
    .where('source', '=', 'ai')
    .where('day', '>=', isoDate(window.from))
    .where('day', '<=', isoDate(window.to))
    .groupBy('engine')
    .execute();
  const per = (field: 'sessions' | 'leads') =>
    rows
      .map((row) => ({ engine: row.engine, count: Number(row[field]) }))
      .filter((row) => row.count > 0)
      .sort(byCount);
  return { visits: per('sessions'), leads: per('leads') };
}

async function providerAiVisits(db: Kysely<Database>, services: SiteAnalyticsServices, workspaceId: string, window: MetricWindow): Promise<EngineCount[]> {
  try {
    const provider = await siteAnalyticsProvider(db, services, workspaceId);
    const traffic = await provider.traffic({ from: isoDate(window.from), to: isoDate(window.to) });
    return traffic.bySource.filter((row) => row.source === 'ai').map((row) => ({ engine: row.engine ?? 'other', count: row.visits })).sort(byCount);
  } catch (error) {
    throw providerFailure(error);
  }
}

const total = (rows: readonly EngineCount[]) => rows.reduce((sum, row) => sum + row.count, 0);

/**
 * The AI pipeline over the window: AI crawlers reading the site, visits referred by answer engines, and leads whose
 * first touch was an answer engine; each stage with its source and definition.
 */
export async function aiFunnel(deps: { db: Kysely<Database>; services: SiteAnalyticsServices; workspaceId: string; now: number }, days: MetricDays) {
  const { db, workspaceId } = deps;
  const window = metricWindow(days, deps.now);
  const site = await db.selectFrom('analytics_sites').select('crawler_source').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  const [crawls, counter, human] = await Promise.all([
    crawlerVisits(db, workspaceId, site.crawler_source, { since: window.from, until: window.to + DAY_MS }),
    counterAiFigures(db, workspaceId, window),
    humanTrafficSource(db, workspaceId),
  ]);
  const visits = human === 'own_counter' ? counter.visits : await providerAiVisits(db, deps.services, workspaceId, window);
  const aiVisits = total(visits);
  const aiLeads = total(counter.leads);
  return {
    window: windowRecord(window),
    crawls: { count: crawls.total, source: site.crawler_source, definition: CRAWLER_SOURCE_DEFINITIONS[site.crawler_source] },
    aiVisits: {
      count: aiVisits,
      byEngine: visits.map(({ engine, count }) => ({ engine, visits: count })),
      source: human,
      definition:
        human === 'own_counter'
          ? "Sessions of the service's own counter whose referrer or utm_source is an answer engine (the maintained list), counted on the day they start."
          : 'Visits the connected analytics provider attributes to an answer engine, by its source, classified with the same list.',
    },
    aiLeads: {
      count: aiLeads,
      byEngine: counter.leads.map(({ engine, count }) => ({ engine, leads: count })),
      source: 'own_counter' as const,
      definition: 'Leads the tracking loader captured whose session began with a visit from an answer engine (first touch).',
    },
    leadsPerAiVisit: aiVisits === 0 ? null : Math.round((aiLeads / aiVisits) * 10_000) / 10_000,
  };
}
