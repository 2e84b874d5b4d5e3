import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { bareHost } from './events.js';

/** A site the loader reports for: its workspace, and the host its pages and requests must come from. */
export interface CounterSite {
  siteId: string;
  workspaceId: string;
  /** The workspace website's host, `www.` dropped: pages of either spelling belong to the site. */
  host: string;
}

/** Lookups stay this long in each process; a site added or a website moved is seen within a minute. */
const CACHE_MS = 60_000;

/** Site ids to sites, cached per process: every event names its site, and most events come from a few sites. */
export class CounterSites {
  private readonly cache = new Map<string, { site: CounterSite | null; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async find(siteId: string): Promise<CounterSite | null> {
    const now = this.clock.now();
    const cached = this.cache.get(siteId);
    if (cached !== undefined && cached.until > now) return cached.site;
    const row = await this.db
      .selectFrom('analytics_sites')
      .innerJoin('workspaces', 'workspaces.id', 'analytics_sites.workspace_id')
      .select(['analytics_sites.workspace_id', 'workspaces.website_url'])
      .where('analytics_sites.site_id', '=', siteId)
      .executeTakeFirst();
    const site = row === undefined ? null : { siteId, workspaceId: row.workspace_id, host: bareHost(new URL(row.website_url).hostname) };
    // Unknown ids are remembered too, so a flood of made-up ids does not become a flood of queries.
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(siteId, { site, until: now + CACHE_MS });
    return site;
  }
}
