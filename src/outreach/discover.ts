import type { Kysely } from 'kysely';
import type { Database, ProspectOrigin } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { enqueueJob, pendingJobId } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { DAY_MS } from '../shared/time.js';
import { domainOf } from '../shared/urls.js';
import { ENGINE_LABELS } from '../visibility/engines/engine.js';
import { onDomain } from './prospects.js';

/** Answers and rank checks older than this say little about who is worth asking now. */
const LOOKBACK_MS = 90 * DAY_MS;
/** Answers read per run (newest first): a few weekly checks of a large workspace. */
const ANSWERS_READ = 3000;
const RANK_CHECKS_READ = 2000;
const REFERRERS_READ = 2000;
/** Organic results at this place or better are pages worth a pitch; lower ones rarely earn the outreach. */
const RANKING_DEPTH = 10;
/** New prospects per run at most, so that one run never buries the pipeline. */
const NEW_PER_RUN = 300;

/**
 * Big platforms that never give a link for a pitch (user content, search, shops, social networks): a domain with one of
 * these as a label, or one of the exact hosts, is never a prospect.
 */
const PLATFORM_LABELS = new Set(['google', 'youtube', 'wikipedia', 'wikimedia', 'reddit', 'amazon', 'facebook', 'instagram', 'linkedin', 'twitter', 'tiktok', 'pinterest', 'quora', 'bing', 'yahoo']);
const PLATFORM_HOSTS = new Set(['x.com', 't.co', 'youtu.be', 'fb.com', 'amzn.to']);

export function isPlatform(domain: string): boolean {
  if (PLATFORM_HOSTS.has(domain)) return true;
  return domain.split('.').slice(0, -1).some((label) => PLATFORM_LABELS.has(label));
}

interface Candidate {
  domain: string;
  pageUrl: string | null;
  title: string | null;
  origin: Exclude<ProspectOrigin, 'import'>;
  reason: string;
}

interface StoredLink {
  url: string;
  domain: string;
  title?: string | null;
  position?: number;
}

function parseLinks(json: string): StoredLink[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed.filter((item): item is StoredLink => typeof item === 'object' && item !== null && typeof (item as StoredLink).url === 'string') : [];
  } catch {
    return [];
  }
}

/** Pages that engines cite in answers naming a competitor: sites that already write about the category. */
async function citingPages(db: Kysely<Database>, workspaceId: string, competitors: ReadonlyMap<string, string>, since: number): Promise<Candidate[]> {
  if (competitors.size === 0) return [];
  const rows = await db
    .selectFrom('answer_mentions as m')
    .innerJoin('engine_answers as a', 'a.id', 'm.answer_id')
    .innerJoin('queries as q', 'q.id', 'a.query_id')
    .select(['a.citations', 'a.engine', 'q.text', 'm.subject_id'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.subject_id', 'in', [...competitors.keys()])
    .where('m.result', 'in', ['cited', 'mentioned'])
    .where('a.checked_at', '>=', since)
    .orderBy('a.checked_at', 'desc')
    .limit(ANSWERS_READ)
    .execute();
  return rows.flatMap((row) =>
    parseLinks(row.citations).map((link) => ({
      domain: link.domain,
      pageUrl: link.url,
      title: link.title ?? null,
      origin: 'competitor_citation' as const,
      reason: `${ENGINE_LABELS[row.engine]} cites this page in its answer to "${row.text}", which names ${competitors.get(row.subject_id)}`,
    })),
  );
}

/** Domains linking to a competitor and not (yet) to the workspace, as the backlink providers list them. */
async function competitorReferrers(db: Kysely<Database>, workspaceId: string, competitorDomains: ReadonlyMap<string, string>, ownDomain: string | undefined): Promise<Candidate[]> {
  if (competitorDomains.size === 0) return [];
  let query = db
    .selectFrom('referring_domains as r')
    .select(['r.referring_domain', 'r.target_domain', 'r.provider'])
    .where('r.workspace_id', '=', workspaceId)
    .where('r.target_domain', 'in', [...competitorDomains.keys()]);
  if (ownDomain !== undefined) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('referring_domains as own')
            .select('own.referring_domain')
            .whereRef('own.workspace_id', '=', 'r.workspace_id')
            .whereRef('own.referring_domain', '=', 'r.referring_domain')
            .where('own.target_domain', '=', ownDomain),
        ),
      ),
    );
  }
  const rows = await query.orderBy('r.rank', 'desc').orderBy('r.referring_domain').limit(REFERRERS_READ).execute();
  return rows.map((row) => ({
    domain: row.referring_domain.toLowerCase().replace(/^www\./, ''),
    pageUrl: null,
    title: null,
    origin: 'competitor_referrer' as const,
    reason: `Links to ${competitorDomains.get(row.target_domain)} (${row.target_domain}) but not to this site, per ${row.provider === 'commoncrawl' ? 'the Common Crawl web graph' : row.provider}`,
  }));
}

/** Pages in the top results of the tracked queries' latest Google checks. */
async function rankingPages(db: Kysely<Database>, workspaceId: string, since: number): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('rank_checks as c')
    .innerJoin('queries as q', 'q.id', 'c.query_id')
    .select(['c.results', 'q.text'])
    .where('c.workspace_id', '=', workspaceId)
    .where('c.search_engine', '=', 'google')
    .where('c.error_class', 'is', null)
    .where('c.checked_at', '>=', since)
    .orderBy('c.checked_at', 'desc')
    .limit(RANK_CHECKS_READ)
    .execute();
  return rows.flatMap((row) =>
    parseLinks(row.results)
      .filter((link) => link.position !== undefined && link.position <= RANKING_DEPTH)
      .map((link) => ({
        domain: link.domain,
        pageUrl: link.url,
        title: link.title ?? null,
        origin: 'ranking_page' as const,
        reason: `Ranks #${link.position} on Google for "${row.text}"`,
      })),
  );
}

/**
 * Finds prospects in the data the service holds: pages engines cite when naming a competitor, domains linking to a
 * competitor but not to the workspace, and pages ranking for the tracked queries. The workspace's own site, its
 * competitors' sites and the big platforms are left out; a domain already in the pipeline keeps its row and stage.
 */
export async function discoverProspects(db: Kysely<Database>, clock: Clock, workspaceId: string) {
  const now = clock.now();
  const since = now - LOOKBACK_MS;
  const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const ownDomain = domainOf(workspace.website_url);
  const competitorRows = await db.selectFrom('competitors').select(['id', 'name', 'domain']).where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).execute();
  const competitorNames = new Map(competitorRows.map((row) => [row.id, row.name]));
  const competitorDomains = new Map(competitorRows.map((row) => [row.domain, row.name]));
  const excluded = (domain: string) =>
    isPlatform(domain) || (ownDomain !== undefined && onDomain(domain, ownDomain)) || competitorRows.some((row) => onDomain(domain, row.domain));

  // The first reason found for a domain is kept: a page citing a competitor says most, a ranking page least.
  const candidates = new Map<string, Candidate>();
  const sources = [
    await citingPages(db, workspaceId, competitorNames, since),
    await competitorReferrers(db, workspaceId, competitorDomains, ownDomain),
    await rankingPages(db, workspaceId, since),
  ];
  for (const candidate of sources.flat()) {
    if (candidate.domain === '' || excluded(candidate.domain) || candidates.has(candidate.domain)) continue;
    candidates.set(candidate.domain, candidate);
  }
  const known = new Set<string>();
  const domains = [...candidates.keys()];
  for (let i = 0; i < domains.length; i += 200) {
    const rows = await db.selectFrom('outreach_prospects').select('domain').where('workspace_id', '=', workspaceId).where('domain', 'in', domains.slice(i, i + 200)).execute();
    for (const row of rows) known.add(row.domain);
  }
  const fresh = [...candidates.values()].filter((candidate) => !known.has(candidate.domain)).slice(0, NEW_PER_RUN);
  const rows = fresh.map((candidate) => ({
    id: newId('pros'),
    workspace_id: workspaceId,
    domain: candidate.domain,
    page_url: candidate.pageUrl,
    title: candidate.title,
    origin: candidate.origin,
    reason: candidate.reason.slice(0, 500),
    target_url: null,
    stage: 'identified' as const,
    stage_changed_at: now,
    contact_email: null,
    contact_name: null,
    contact_confidence: null,
    contact_source: null,
    contact_found_at: null,
    created_at: now,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('outreach_prospects')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['workspace_id', 'domain']).doNothing())
      .execute();
  }
  const byOrigin = { competitor_citation: 0, competitor_referrer: 0, ranking_page: 0 };
  for (const row of fresh) byOrigin[row.origin]++;
  return { added: rows.length, alreadyKnown: known.size, byOrigin };
}

export const outreachDiscoverJob: JobHandler = {
  async run(job, { db, clock, progress }) {
    await progress('looking for prospects in engine answers, referring domains and rankings');
    return discoverProspects(db, clock, job.workspaceId);
  },
};

/**
 * Whether discovery has anything to read: competitors (their citations and referring domains) or Google rank checks
 * (the pages ranking for the tracked queries).
 */
function hasSources(db: Kysely<Database>) {
  return db
    .selectFrom('workspaces as w')
    .select('w.id')
    .where(({ or, exists, selectFrom }) =>
      or([
        exists(selectFrom('competitors as c').select('c.id').whereRef('c.workspace_id', '=', 'w.id').where('c.removed_at', 'is', null)),
        exists(selectFrom('rank_checks as r').select('r.id').whereRef('r.workspace_id', '=', 'w.id').where('r.search_engine', '=', 'google').where('r.error_class', 'is', null)),
      ]),
    );
}

/** Queues a discovery run for the workspace when it has something to read and none is already waiting or running. */
export async function queueDiscovery(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<boolean> {
  if ((await hasSources(db).where('w.id', '=', workspaceId).executeTakeFirst()) === undefined) return false;
  const pending = await pendingJobId(db, workspaceId, 'outreach_discover');
  if (pending !== undefined) return false;
  await enqueueJob(db, clock, { workspaceId, kind: 'outreach_discover' });
  return true;
}

/** The daily sweep: a discovery run for every workspace with something to read. */
export async function queueDailyDiscovery(db: Kysely<Database>, clock: Clock): Promise<number> {
  const workspaces = await hasSources(db).execute();
  let queued = 0;
  for (const { id } of workspaces) if (await queueDiscovery(db, clock, id)) queued++;
  return queued;
}
