import type { Kysely } from 'kysely';
import type { BacklinkSource, BacklinkStatus, Database, OutreachStage } from '../../db/schema.js';
import { toIso } from '../shared/time.js';

/**
 * Social and community sites: a link the workspace built there (a reply, a post, a profile) counts as built through
 * social. Matched on the linking domain and its subdomains.
 */
export const SOCIAL_DOMAINS = [
  'reddit.com',
  'news.ycombinator.com',
  'stackoverflow.com',
  'stackexchange.com',
  'bsky.app',
  'x.com',
  'twitter.com',
  'linkedin.com',
  'facebook.com',
  'medium.com',
  'quora.com',
  'dev.to',
  'producthunt.com',
  'indiehackers.com',
  'mastodon.social',
  'threads.net',
] as const;

/** Rows that stand for a link that is there or is being checked (the same list as the tally triggers of migration 0022). */
const LIVE_STATUSES: readonly BacklinkStatus[] = ['discovered', 'verified', 'placed', 'link_placed'];

async function measured(db: Kysely<Database>, workspaceId: string) {
  // The newest measurement of each provider; DataForSEO (it counts both totals) is preferred over Common Crawl.
  const rows = await db
    .selectFrom('backlink_measures')
    .select(['provider', 'indexed_backlinks', 'referring_domains', 'measured_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('measured_at', 'desc')
    .limit(20)
    .execute();
  const indexed = rows.find((row) => row.indexed_backlinks !== null);
  const referring = rows.find((row) => row.provider === 'dataforseo' && row.referring_domains !== null) ?? rows.find((row) => row.referring_domains !== null);
  return { indexed, referring };
}

/**
 * Every figure of the specification's backlink stats, read from the tallies the triggers keep with every write to
 * backlinks (so the answer costs the same at 100 rows or 100,000). avgDA averages the authority of the live rows whose
 * metric most of them carry, and names that metric: DataForSEO's domain rank is not Moz's Domain Authority.
 */
export async function backlinkStats(db: Kysely<Database>, workspaceId: string) {
  const tallies = db.selectFrom('backlink_tallies').selectAll().where('workspace_id', '=', workspaceId).where('links', '>', 0).execute();
  const domains = db
    .selectFrom('backlink_domains')
    .select((eb) => eb.fn.countAll<number>().as('domains'))
    .where('workspace_id', '=', workspaceId)
    .where('live_links', '>', 0)
    .executeTakeFirstOrThrow();
  const social = db
    .selectFrom('backlink_domains')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('built_live_links'), eb.lit(0)).as('links'))
    .where('workspace_id', '=', workspaceId)
    .where('built_live_links', '>', 0)
    .where((eb) => eb.or(SOCIAL_DOMAINS.flatMap((domain) => [eb('linking_domain', '=', domain), eb('linking_domain', 'like', `%.${domain}`)])))
    .executeTakeFirstOrThrow();
  const stages = db
    .selectFrom('outreach_prospects')
    .select(['stage', (eb) => eb.fn.countAll<number>().as('prospects')])
    .where('workspace_id', '=', workspaceId)
    .groupBy('stage')
    .execute();
  const [tallyRows, domainCount, socialLinks, stageRows, totals] = await Promise.all([tallies, domains, social, stages, measured(db, workspaceId)]);

  const links = (keep: (row: { status: BacklinkStatus; source: BacklinkSource }) => boolean) => tallyRows.filter(keep).reduce((sum, row) => sum + Number(row.links), 0);
  const stage = (name: OutreachStage) => Number(stageRows.find((row) => row.stage === name)?.prospects ?? 0);
  const built = (source: BacklinkSource) => links((row) => row.source === source && LIVE_STATUSES.includes(row.status));
  const byMetric = new Map<string, { rated: number; sum: number }>();
  for (const row of tallyRows) {
    if (row.authority_metric === '' || Number(row.rated_links) === 0 || !LIVE_STATUSES.includes(row.status)) continue;
    const metric = byMetric.get(row.authority_metric) ?? { rated: 0, sum: 0 };
    byMetric.set(row.authority_metric, { rated: metric.rated + Number(row.rated_links), sum: metric.sum + Number(row.authority_sum) });
  }
  const leading = [...byMetric].sort(([, a], [, b]) => b.rated - a.rated)[0];

  return {
    total: links(() => true),
    discovered: links((row) => row.status === 'discovered'),
    verified: links((row) => row.status === 'verified'),
    lost: links((row) => row.status === 'lost'),
    avgDA: leading === undefined ? null : Math.round((leading[1].sum / leading[1].rated) * 10) / 10,
    avgDAMetric: leading?.[0] ?? null,
    avgDARows: leading?.[1].rated ?? 0,
    uniqueDomains: Number(domainCount.domains),
    ...(totals.indexed === undefined ? {} : { indexedBacklinks: Number(totals.indexed.indexed_backlinks), indexedMeasuredAt: toIso(totals.indexed.measured_at) }),
    ...(totals.referring === undefined
      ? {}
      : { referringDomains: Number(totals.referring.referring_domains), referringDomainsSource: totals.referring.provider, referringMeasuredAt: toIso(totals.referring.measured_at) }),
    outreach: { identified: stage('identified'), contacted: stage('contacted'), replied: stage('replied'), linkPlaced: stage('link_placed'), rejected: stage('rejected') },
    built: { outreach: built('outreach'), social: Number(socialLinks.links), network: built('network'), managed: built('managed') },
  };
}
