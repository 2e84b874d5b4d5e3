import { access, constants } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import { OperatorError } from '../../operator.js';
import { competitorDomain } from '../../visibility/competitors/competitors.js';
import { ReleaseGraph } from './graph.js';
import { isReleaseName, type ReleaseFiles } from './release.js';

export const COMMONCRAWL_PROVIDER = 'commoncrawl';
/**
 * Referring domains stored per target domain: the best ranked (or, without ranks, those with the most hosts). The
 * count in the measurement is of all of them; a large competitor can have millions, more than outreach can use.
 */
export const REFERRERS_KEPT_PER_TARGET = 20_000;
const INSERT_BATCH = 500;

export interface TargetSummary {
  domain: string;
  /** False when the release has no vertex for the domain: the crawl did not reach it, so its count says nothing. */
  inGraph: boolean;
  referringDomains: number;
  /** Rows stored in referring_domains (at most REFERRERS_KEPT_PER_TARGET). */
  stored: number;
}

export interface WorkspaceSummary {
  workspaceId: string;
  name: string;
  site: TargetSummary;
  competitors: TargetSummary[];
}

export interface LoadSummary {
  release: string;
  /** Whether referring domains carry the release's harmonic-centrality position as their rank. */
  ranked: boolean;
  workspaces: WorkspaceSummary[];
}

async function requireReadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new OperatorError(`${path} is missing or unreadable: download the release with --download, or name the folder holding it with --dir`);
  }
}

interface WorkspaceTargets {
  workspaceId: string;
  name: string;
  site: string;
  competitors: string[];
}

async function workspaceTargets(db: Kysely<Database>): Promise<WorkspaceTargets[]> {
  const workspaces = await db.selectFrom('workspaces').select(['id', 'name', 'website_url']).orderBy('created_at').orderBy('id').execute();
  const competitors = await db.selectFrom('competitors').select(['workspace_id', 'domain']).where('removed_at', 'is', null).orderBy('created_at').execute();
  return workspaces.map((workspace) => {
    const site = competitorDomain(workspace.website_url);
    const theirs = competitors.filter((c) => c.workspace_id === workspace.id && c.domain !== site).map((c) => c.domain);
    return { workspaceId: workspace.id, name: workspace.name, site, competitors: [...new Set(theirs)] };
  });
}

/**
 * Loads one Common Crawl web graph release: for every workspace's site and its competitors' sites, the referring
 * domains the release records (search engines, archives, caches and proxies left out) replace the workspace's
 * previous Common Crawl rows, and the site's count is recorded as a measurement of the release.
 */
export async function loadCommonCrawlRelease(
  db: Kysely<Database>,
  clock: Clock,
  input: { release: string; files: ReleaseFiles; keepPerTarget?: number },
): Promise<LoadSummary> {
  if (!isReleaseName(input.release)) throw new OperatorError(`${input.release} is not a Common Crawl web graph release name (like cc-main-2025-jun-jul-aug)`);
  for (const path of Object.values(input.files)) await requireReadable(path);
  const keep = input.keepPerTarget ?? REFERRERS_KEPT_PER_TARGET;
  const all = await workspaceTargets(db);
  const targets = [...new Set(all.flatMap((w) => [w.site, ...w.competitors]))];

  let graph: ReleaseGraph;
  try {
    graph = await ReleaseGraph.read(input.files, targets);
  } catch (error) {
    throw new OperatorError(`reading release ${input.release}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const summaries: WorkspaceSummary[] = [];
    for (const workspace of all) summaries.push(await storeWorkspace(db, clock, graph, workspace, input.release, keep));
    return { release: input.release, ranked: input.files.ranks !== undefined, workspaces: summaries };
  } finally {
    graph.close();
  }
}

async function storeWorkspace(
  db: Kysely<Database>,
  clock: Clock,
  graph: ReleaseGraph,
  workspace: WorkspaceTargets,
  release: string,
  keep: number,
): Promise<WorkspaceSummary> {
  const found = new Map<string, Awaited<ReturnType<ReleaseGraph['referrersOf']>>>();
  for (const domain of [workspace.site, ...workspace.competitors]) found.set(domain, await graph.referrersOf(domain, keep));
  const site = found.get(workspace.site)!;
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('referring_domains').where('workspace_id', '=', workspace.workspaceId).where('provider', '=', COMMONCRAWL_PROVIDER).execute();
    const rows = [...found].flatMap(([target, referrers]) =>
      referrers.top.map((referrer) => ({
        workspace_id: workspace.workspaceId,
        target_domain: target,
        referring_domain: referrer.domain,
        provider: COMMONCRAWL_PROVIDER,
        links: null,
        rank: referrer.rank,
        measured_at: now,
      })),
    );
    for (let at = 0; at < rows.length; at += INSERT_BATCH) await trx.insertInto('referring_domains').values(rows.slice(at, at + INSERT_BATCH)).execute();
    await trx
      .insertInto('backlink_measures')
      .values({
        id: newId('blm'),
        workspace_id: workspace.workspaceId,
        provider: COMMONCRAWL_PROVIDER,
        indexed_backlinks: null,
        // Not in the graph: the release did not measure the site, and a 0 would read as "no referring domains".
        referring_domains: site.inGraph ? site.total : null,
        detail: JSON.stringify({ release, domain: workspace.site, inGraph: site.inGraph }),
        measured_at: now,
      })
      .execute();
  });
  const summary = (domain: string): TargetSummary => {
    const referrers = found.get(domain)!;
    return { domain, inGraph: referrers.inGraph, referringDomains: referrers.total, stored: referrers.top.length };
  };
  return { workspaceId: workspace.workspaceId, name: workspace.name, site: summary(workspace.site), competitors: workspace.competitors.map(summary) };
}
