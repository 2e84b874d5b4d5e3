import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { enqueueJob, pendingJobId } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { crawlerAccess } from '../visibility/crawlerAccess/crawlerAccess.js';
import { readRobots } from '../visibility/crawlerAccess/robots.js';
import { recordChanges, type NoticedChange } from './record.js';

/** Crawlers named in a change's title; the details list them all. */
const NAMED_IN_TITLE = 3;

type CrawlerRow = Awaited<ReturnType<typeof crawlerAccess>>['crawlers'][number];
type Report = Awaited<ReturnType<typeof crawlerAccess>>;

/** Queues a probe of the workspace's site for its AI crawlers unless one is waiting or running. */
export async function queueCrawlerReach(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<void> {
  if ((await pendingJobId(db, workspaceId, 'crawler_reach')) !== undefined) return;
  await enqueueJob(db, clock, { workspaceId, kind: 'crawler_reach', subjectId: workspaceId, maxAttempts: 2 });
}

/**
 * Whether the probe can tell about this crawler. A home page that did not answer at all (a timeout, a refused
 * connection, the probe's budget spent) and a robots.txt that could not be fetched say more about the network between
 * Sightline and the site than about the site's rules for the crawler: the last known state stays.
 */
function known(report: Report, crawler: CrawlerRow): boolean {
  if (crawler.homeStatus === null) return false;
  return !(report.robots.status === 'unreachable' && report.robots.httpStatus === null);
}

function why(crawler: CrawlerRow): string {
  if (!crawler.robotsAllowed) return 'robots.txt disallows it';
  return `the home page answered ${crawler.homeStatus} to its user agent`;
}

function crawlerNames(crawlers: readonly CrawlerRow[]): string {
  const named = crawlers.slice(0, NAMED_IN_TITLE).map((c) => c.token);
  return crawlers.length > NAMED_IN_TITLE ? `${named.join(', ')} and ${crawlers.length - NAMED_IN_TITLE} more` : named.join(', ');
}

/**
 * Compares the probe with the last known state per crawler and moves each state that flipped, each by a conditional
 * update from the state it had: of two checks seeing the same flip, one moves it. The crawlers that flipped one way are
 * one change (a robots.txt edit blocks many at once), keyed by the flips it reports.
 */
async function recordReach(db: Kysely<Database>, clock: Clock, workspaceId: string, report: Report): Promise<{ blocked: number; allowed: number; first: number }> {
  const now = clock.now();
  const stored = new Map((await db.selectFrom('crawler_reach').selectAll().where('workspace_id', '=', workspaceId).execute()).map((row) => [row.token, row]));
  const flipped: Record<'blocked' | 'allowed', Array<{ crawler: CrawlerRow; since: number }>> = { blocked: [], allowed: [] };
  let first = 0;
  for (const crawler of report.crawlers) {
    if (!known(report, crawler)) continue;
    const state = {
      reachable: crawler.robotsAllowed && crawler.reachable ? 1 : 0,
      robots_allowed: crawler.robotsAllowed ? 1 : 0,
      home_status: crawler.homeStatus,
      checked_at: now,
    };
    const before = stored.get(crawler.token);
    if (before === undefined) {
      // A first observation is the starting point, not a change.
      const inserted = await db
        .insertInto('crawler_reach')
        .values({ workspace_id: workspaceId, token: crawler.token, since: now, ...state })
        .onConflict((oc) => oc.columns(['workspace_id', 'token']).doNothing())
        .executeTakeFirst();
      first += Number(inserted.numInsertedOrUpdatedRows ?? 0n);
      continue;
    }
    if (before.reachable === state.reachable) {
      await db.updateTable('crawler_reach').set(state).where('workspace_id', '=', workspaceId).where('token', '=', crawler.token).execute();
      continue;
    }
    const moved = await db
      .updateTable('crawler_reach')
      .set({ ...state, since: now })
      .where('workspace_id', '=', workspaceId)
      .where('token', '=', crawler.token)
      .where('reachable', '=', before.reachable)
      .where('since', '=', before.since)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 1n) flipped[state.reachable === 1 ? 'allowed' : 'blocked'].push({ crawler, since: before.since });
  }
  const site = new URL(report.home).host;
  const changes: NoticedChange[] = [];
  for (const direction of ['blocked', 'allowed'] as const) {
    const flips = flipped[direction];
    if (flips.length === 0) continue;
    const crawlers = flips.map((f) => f.crawler);
    const title =
      direction === 'blocked'
        ? `${crawlerNames(crawlers)} can no longer reach ${site}: ${crawlers.length === 1 ? why(crawlers[0]!) : 'robots.txt or the server turns them away'}`
        : `${crawlerNames(crawlers)} can reach ${site} again`;
    changes.push({
      kind: direction === 'blocked' ? 'crawler.blocked' : 'crawler.allowed',
      dedupeKey: flips.map((f) => `${f.crawler.token}@${f.since}`).sort().join(','),
      title,
      details: {
        site: report.home,
        robots: report.robots,
        crawlers: crawlers.map((c) => ({
          token: c.token,
          operator: c.operator,
          category: c.category,
          robotsAllowed: c.robotsAllowed,
          homeStatus: c.homeStatus,
          reason: direction === 'blocked' ? why(c) : null,
        })),
      },
    });
  }
  await recordChanges(db, clock, workspaceId, changes);
  return { blocked: flipped.blocked.length, allowed: flipped.allowed.length, first };
}

/**
 * crawler_reach, queued when a check run closes: probes the site as get_crawler_access does (robots.txt by RFC 9309 and the home page with each
 * crawler's user agent), outside any transaction as it waits on the customer's site, then records the flips in one.
 */
export const crawlerReachJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    // A site that does not answer at all would hold the probe for its whole budget and tell nothing: one look first.
    const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', job.workspaceId).executeTakeFirstOrThrow();
    const origin = new URL(workspace.website_url);
    origin.protocol = 'https:';
    const robots = await readRobots(services.outbound, origin.origin);
    if (robots.status === 'unreachable' && robots.httpStatus === null) return { skipped: `the site did not answer: ${robots.error}` };
    await progress('reading robots.txt and fetching the home page as each AI crawler');
    const report = await crawlerAccess(db, services.outbound, job.workspaceId);
    const counts = await db.transaction().execute((trx) => recordReach(trx, clock, job.workspaceId, report));
    return { home: report.home, robots: report.robots.status, crawlers: report.crawlers.length, firstSeen: counts.first, blocked: counts.blocked, allowed: counts.allowed };
  },
};
