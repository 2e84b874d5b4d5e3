import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { BACKLINK_INDEX_SETTINGS } from '../../config.js';
import { newId } from '../../ids.js';
import { enqueueJob, pendingJobId, workspacesWithJob } from '../../jobs/queue.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { Services } from '../../outsideServices.js';
import { domainOf } from '../../shared/urls.js';
import type { BacklinkIndex, IndexedBacklink, IndexedReferringDomain } from './provider.js';

const WEEK_MS = 7 * 86_400_000;
/** Referring domains stored per domain (the workspace's and each competitor's): enough to pick outreach prospects from. */
export const REFERRING_DOMAINS_PER_DOMAIN = 200;
/** Rows per insert statement: far below either database's limit on bound parameters (19 a backlink row). */
const INSERT_CHUNK = 500;

/**
 * Queues a backlink_sync of the workspace unless one is waiting or running already; the job that will do it either
 * way. The caller checks that the index is configured.
 */
export async function queueBacklinkSync(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<{ jobId: string; queued: boolean }> {
  const pending = await pendingJobId(db, workspaceId, 'backlink_sync');
  if (pending !== undefined) return { jobId: pending, queued: false };
  return { jobId: await enqueueJob(db, clock, { workspaceId, kind: 'backlink_sync', subjectId: workspaceId, maxAttempts: 3 }), queued: true };
}

/**
 * The weekly schedule, looked at by a claimed sweep: a workspace is due when no backlink_sync of it was queued in the
 * last seven days (a failed one counts, so a failing provider is not paid for again before the week is out).
 */
export async function queueDueBacklinkSyncs(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'backlinkIndex'>): Promise<number> {
  if (services.backlinkIndex === undefined) return 0;
  const since = clock.now() - WEEK_MS;
  const due = await db
    .selectFrom('workspaces')
    .select('workspaces.id')
    .where('workspaces.id', 'not in', workspacesWithJob(db, 'backlink_sync', since))
    .execute();
  let queued = 0;
  for (const { id } of due) if ((await queueBacklinkSync(db, clock, id)).queued) queued++;
  return queued;
}

/**
 * The target's backlinks, page after page by the index's token, up to the index's row limit; one row per (linking
 * page, target), a live link preferred over a lost one at the same place. Each page asks only for the rows still
 * wanted, since the provider bills the rows it answers, not the rows kept.
 */
async function readBacklinks(index: BacklinkIndex, target: string, progress: (text: string) => Promise<void>): Promise<IndexedBacklink[]> {
  const byKey = new Map<string, IndexedBacklink>();
  let page: string | undefined;
  let read = 0;
  do {
    await progress(`reading the backlinks of ${target} (${read} so far)`);
    const answer = await index.backlinks(target, Math.min(index.maxPageSize, index.maxRows - read), page);
    for (const link of answer.links.slice(0, index.maxRows - read)) {
      const key = `${link.linkingUrl}\n${link.targetUrl}`;
      const known = byKey.get(key);
      if (known === undefined || (known.lost && !link.lost)) byKey.set(key, link);
    }
    read += answer.links.length;
    page = answer.nextPage;
  } while (page !== undefined && read < index.maxRows);
  return [...byKey.values()];
}

function distinctDomains(domains: readonly IndexedReferringDomain[]): IndexedReferringDomain[] {
  const seen = new Set<string>();
  return domains.filter((d) => !seen.has(d.domain) && seen.add(d.domain));
}

/**
 * Upserts the index's links as `index` rows. A row the service knows from elsewhere (outreach, the owner, the network)
 * keeps its source, status, dates, anchor and rel: verification owns those, so only the authority is refreshed there.
 */
async function upsertIndexLinks(db: Kysely<Database>, workspaceId: string, metric: string, links: readonly IndexedBacklink[], now: number): Promise<void> {
  const rows = links.map((link) => ({
    id: newId('bl'),
    workspace_id: workspaceId,
    linking_url: link.linkingUrl,
    linking_domain: link.linkingDomain,
    target_url: link.targetUrl,
    anchor_text: link.anchorText,
    dofollow: link.dofollow ? 1 : 0,
    domain_authority: link.domainRank,
    authority_metric: link.domainRank === null ? null : metric,
    status: link.lost ? ('lost' as const) : ('discovered' as const),
    source: 'index' as const,
    prospect_id: null,
    placement_id: null,
    discovered_at: link.firstSeenAt ?? now,
    placed_at: null,
    last_verified_at: null,
    lost_at: link.lost ? (link.lostAt ?? now) : null,
    status_changed_at: now,
    check_error: null,
    next_check_at: null,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('backlinks')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'linking_url', 'target_url']).doUpdateSet((eb) => {
          const fromIndex = eb('backlinks.source', '=', 'index');
          const ranked = eb('excluded.domain_authority', 'is not', null);
          return {
            domain_authority: eb.case().when(ranked).then(eb.ref('excluded.domain_authority')).else(eb.ref('backlinks.domain_authority')).end(),
            authority_metric: eb.case().when(ranked).then(eb.ref('excluded.authority_metric')).else(eb.ref('backlinks.authority_metric')).end(),
            anchor_text: eb.case().when(fromIndex).then(eb.ref('excluded.anchor_text')).else(eb.ref('backlinks.anchor_text')).end(),
            dofollow: eb.case().when(fromIndex).then(eb.ref('excluded.dofollow')).else(eb.ref('backlinks.dofollow')).end(),
            discovered_at: eb.case().when(fromIndex).then(eb.ref('excluded.discovered_at')).else(eb.ref('backlinks.discovered_at')).end(),
            status: eb.case().when(fromIndex).then(eb.ref('excluded.status')).else(eb.ref('backlinks.status')).end(),
            // A link still lost keeps the date it was first recorded lost; one found again is no longer lost.
            lost_at: eb
              .case()
              .when(eb.not(fromIndex))
              .then(eb.ref('backlinks.lost_at'))
              .when('excluded.status', '<>', 'lost')
              .then(null)
              .when(eb.and([eb('backlinks.status', '=', 'lost'), eb('backlinks.lost_at', 'is not', null)]))
              .then(eb.ref('backlinks.lost_at'))
              .else(eb.ref('excluded.lost_at'))
              .end(),
            status_changed_at: eb
              .case()
              .when(eb.and([fromIndex, eb('backlinks.status', '<>', eb.ref('excluded.status'))]))
              .then(now)
              .else(eb.ref('backlinks.status_changed_at'))
              .end(),
          };
        }),
      )
      .execute();
  }
}

/** Replaces the referring domains this provider listed for one domain the workspace follows. */
async function replaceReferringDomains(
  db: Kysely<Database>,
  workspaceId: string,
  provider: string,
  targetDomain: string,
  domains: readonly IndexedReferringDomain[],
  now: number,
): Promise<void> {
  await db.deleteFrom('referring_domains').where('workspace_id', '=', workspaceId).where('target_domain', '=', targetDomain).where('provider', '=', provider).execute();
  for (let i = 0; i < domains.length; i += INSERT_CHUNK) {
    await db
      .insertInto('referring_domains')
      .values(
        domains.slice(i, i + INSERT_CHUNK).map((d) => ({
          workspace_id: workspaceId,
          target_domain: targetDomain,
          referring_domain: d.domain,
          provider,
          links: d.links,
          rank: d.rank,
          measured_at: now,
        })),
      )
      .execute();
  }
}

/**
 * backlink_sync: reads the workspace website's totals and backlinks (up to BACKLINKS_MAX_ROWS) and the referring
 * domains of the website and of each competitor (up to REFERRING_DOMAINS_PER_DOMAIN each) from the backlink index,
 * then writes them in one transaction: `index` backlink rows (upserted; lost links marked, found ones back to
 * `discovered`), a backlink_measures row, and the referring_domains lists, replaced (those of competitors no longer
 * tracked dropped). Index rows are not verified by the service (next_check_at null). A provider that is busy or down
 * (a TransientEngineError) is retried by the worker, at the wait it asked for when it said (jobErrorOf).
 */
export const backlinkSyncJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    const index = services.backlinkIndex;
    if (index === undefined) throw new Error(`The backlink index is not configured: the operator must set ${BACKLINK_INDEX_SETTINGS}`);
    const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', job.workspaceId).executeTakeFirst();
    if (workspace === undefined) return { skipped: 'the workspace no longer exists' };
    const target = domainOf(workspace.website_url);
    if (target === undefined) throw new Error(`The workspace's website (${workspace.website_url}) is not an http(s) URL`);
    const competitors = await db.selectFrom('competitors').select('domain').where('workspace_id', '=', job.workspaceId).where('removed_at', 'is', null).execute();
    const followed = [...new Set([target, ...competitors.map((c) => c.domain)])];
    await progress(`reading the backlink totals of ${target}`);
    const summary = await index.summary(target);
    const links = await readBacklinks(index, target, progress);
    const referring = new Map<string, IndexedReferringDomain[]>();
    for (const domain of followed) {
      await progress(`reading the referring domains of ${domain}`);
      referring.set(domain, distinctDomains(await index.referringDomains(domain, REFERRING_DOMAINS_PER_DOMAIN)));
    }
    const now = clock.now();
    const stored = await db.transaction().execute(async (trx) => {
      if ((await trx.selectFrom('workspaces').select('id').where('id', '=', job.workspaceId).executeTakeFirst()) === undefined) return false;
      await upsertIndexLinks(trx, job.workspaceId, index.authorityMetric, links, now);
      await trx
        .insertInto('backlink_measures')
        .values({
          id: newId('blm'),
          workspace_id: job.workspaceId,
          provider: index.provider,
          indexed_backlinks: summary.backlinks,
          referring_domains: summary.referringDomains,
          detail: JSON.stringify({
            target,
            referringMainDomains: summary.referringMainDomains,
            nofollowBacklinks: summary.nofollowBacklinks,
            brokenBacklinks: summary.brokenBacklinks,
          }),
          measured_at: now,
        })
        .execute();
      // A competitor no longer tracked leaves no list behind for outreach to pick prospects from.
      await trx
        .deleteFrom('referring_domains')
        .where('workspace_id', '=', job.workspaceId)
        .where('provider', '=', index.provider)
        .where('target_domain', 'not in', followed)
        .execute();
      for (const [domain, domains] of referring) await replaceReferringDomains(trx, job.workspaceId, index.provider, domain, domains, now);
      return true;
    });
    if (!stored) return { skipped: 'the workspace was deleted while the index was read' };
    return {
      target,
      backlinks: links.length,
      lost: links.filter((link) => link.lost).length,
      indexedBacklinks: summary.backlinks,
      referringDomains: summary.referringDomains,
      referringDomainLists: Object.fromEntries([...referring].map(([domain, domains]) => [domain, domains.length])),
    };
  },
};
