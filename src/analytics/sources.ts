import type { Kysely } from 'kysely';
import type { CrawlerSource, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { toIso } from '../shared/time.js';
import { readSiteBuilderInstalls } from './builders/installs.js';
import { queueCdnBackfill, readCdnStatus } from './cdn/sync.js';
import { loaderTag } from './counter/loaderTag.js';
import { readSiteAnalyticsConnection } from './providers/connections.js';

export const CRAWLER_SOURCES = ['site_hook', 'cms_plugin', 'cdn'] as const satisfies readonly CrawlerSource[];
const DAY_MS = 86_400_000;

/** Where human traffic is read when a figure needs one source: the own counter once it has reported, else a connected provider. */
export type HumanTrafficSource = 'own_counter' | 'analytics_provider';

async function lastCrawlReport(db: Kysely<Database>, workspaceId: string, reporter: 'site_hook' | 'cms_plugin'): Promise<number | null> {
  const row = await db
    .selectFrom('crawler_visits')
    .select('visited_at')
    .where('workspace_id', '=', workspaceId)
    .where('reporter', '=', reporter)
    .orderBy('visited_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.visited_at);
}

/** The human-traffic source the funnel and reports read: the counter once the loader reported, else a connected provider. */
export async function humanTrafficSource(db: Kysely<Database>, workspaceId: string): Promise<HumanTrafficSource> {
  const site = await db.selectFrom('analytics_sites').select('loader_seen_at').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  if (site.loader_seen_at !== null) return 'own_counter';
  return (await readSiteAnalyticsConnection(db, workspaceId)) === undefined ? 'own_counter' : 'analytics_provider';
}

/**
 * The analytics sources of a workspace: which one each kind of data is read from, which ones its setup qualifies for,
 * and the install state of each (the loader's tag and last report, the provider's connection, the crawler hooks' last
 * reports, the CMS plugin's version, the CDN zone and its sync).
 */
export async function analyticsSources(db: Kysely<Database>, clock: Clock, publicUrl: string, workspaceId: string) {
  const now = clock.now();
  const site = await db.selectFrom('analytics_sites').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  const [provider, cdn, hookAt, pluginAt, destination, human, siteBuilders] = await Promise.all([
    readSiteAnalyticsConnection(db, workspaceId),
    readCdnStatus(db, workspaceId),
    lastCrawlReport(db, workspaceId, 'site_hook'),
    lastCrawlReport(db, workspaceId, 'cms_plugin'),
    db.selectFrom('destinations').select('id').where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).executeTakeFirst(),
    humanTrafficSource(db, workspaceId),
    readSiteBuilderInstalls(db, workspaceId),
  ]);
  const recent = (at: number | null) => at !== null && now - at < DAY_MS;
  const loaderSeenAt = site.loader_seen_at === null ? null : Number(site.loader_seen_at);
  return {
    humanTraffic: {
      selected: human,
      sources: [
        {
          source: 'own_counter' as const,
          qualifies: true,
          siteId: site.site_id,
          tag: loaderTag(publicUrl, site.site_id),
          lastReportAt: toIso(loaderSeenAt),
          reportedLast24h: recent(loaderSeenAt),
        },
        {
          source: 'analytics_provider' as const,
          qualifies: provider !== undefined,
          provider: provider?.provider ?? null,
          connectedAt: provider === undefined ? null : toIso(provider.connectedAt),
          lastError: provider?.lastError ?? null,
        },
      ],
    },
    aiCrawlers: {
      selected: site.crawler_source,
      sources: [
        { source: 'site_hook' as const, qualifies: destination !== undefined, lastReportAt: toIso(hookAt), reportedLast24h: recent(hookAt) },
        {
          source: 'cms_plugin' as const,
          qualifies: site.cms_plugin_version !== null,
          pluginVersion: site.cms_plugin_version,
          lastReportAt: toIso(pluginAt),
          reportedLast24h: recent(pluginAt),
        },
        {
          source: 'cdn' as const,
          qualifies: cdn?.connected === true && cdn.zone !== null,
          connected: cdn?.connected ?? false,
          via: cdn?.via ?? null,
          zone: cdn?.zone ?? null,
          lastSyncAt: toIso(cdn?.lastSyncAt ?? null),
          lastError: cdn?.lastError ?? null,
          backfill: cdn?.backfill ?? null,
        },
      ],
    },
    siteBuilders,
  };
}

const NOT_QUALIFIED: Record<CrawlerSource, string> = {
  site_hook: "needs a publishing destination: its signing secret is the key the site's serving code reports crawlers with (create_destination)",
  cms_plugin: 'needs the CMS plugin to have reported at least once (it sends x-sightline-plugin with its crawler reports)',
  cdn: 'needs a connected Cloudflare account and a selected zone (get_cdn_connect_url, then select_cdn_zone)',
};

/** Selects where AI-crawler figures come from; a source the setup does not qualify for is refused. Choosing the CDN queues its backfill. */
export async function selectCrawlerSource(db: Kysely<Database>, clock: Clock, publicUrl: string, workspaceId: string, source: CrawlerSource) {
  const { aiCrawlers } = await analyticsSources(db, clock, publicUrl, workspaceId);
  if (!aiCrawlers.sources.find((candidate) => candidate.source === source)!.qualifies) {
    throw BadInputError.field('source', `${source} is not available for this workspace: it ${NOT_QUALIFIED[source]}`);
  }
  await db.updateTable('analytics_sites').set({ crawler_source: source }).where('workspace_id', '=', workspaceId).execute();
  const backfillJobId = source === 'cdn' ? ((await queueCdnBackfill(db, clock, workspaceId)) ?? null) : null;
  return { dataType: 'aiCrawlers' as const, source, previous: aiCrawlers.selected, changed: aiCrawlers.selected !== source, backfillJobId };
}
