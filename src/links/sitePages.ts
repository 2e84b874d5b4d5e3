import type { Kysely, Selectable } from 'kysely';
import { getDomain } from 'tldts';
import type { Database, SitePagesTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { newId } from '../ids.js';
import { fromJson, toJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';

/** Site pages a workspace keeps for internal links; every render matches against all of them. */
export const MAX_SITE_PAGES = 2000;

export type SitePageSource = SitePagesTable['source'];

export interface NewSitePage {
  url: string;
  title?: string | null;
  keywords?: string[];
}

/** The registrable domain (private suffixes such as github.io count), or the host itself for IPs and single names. */
export function siteOf(url: URL): string {
  return getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname;
}

export async function workspaceWebsite(db: Kysely<Database>, workspaceId: string): Promise<URL> {
  const row = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return new URL(row.website_url);
}

/** One spelling per page: the fragment never names another page. */
export function pageUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

function sitePageRecord(row: Selectable<SitePagesTable>) {
  return { pageId: row.id, url: row.url, title: row.title, keywords: fromJson<string[]>(row.keywords), source: row.source, createdAt: toIso(row.created_at) };
}

export async function listSitePages(db: Kysely<Database>, workspaceId: string) {
  const rows = await db.selectFrom('site_pages').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('url').execute();
  return { pages: rows.map(sitePageRecord), total: rows.length, limit: MAX_SITE_PAGES };
}

export interface StoreResult {
  added: Array<{ pageId: string; url: string }>;
  /** Already kept, or named twice in the same call. */
  duplicates: string[];
  /** Not stored because the workspace keeps MAX_SITE_PAGES already. */
  overLimit: string[];
}

/**
 * Stores the pages the workspace does not have yet, up to MAX_SITE_PAGES. The caller has checked that every URL is
 * on the workspace's site. Runs in the caller's transaction; the workspace lock keeps the count honest.
 */
export async function storeSitePages(db: Kysely<Database>, clock: Clock, workspaceId: string, pages: NewSitePage[], source: SitePageSource): Promise<StoreResult> {
  await lockWorkspace(db, workspaceId);
  const known = new Set((await db.selectFrom('site_pages').select('url').where('workspace_id', '=', workspaceId).execute()).map((row) => row.url));
  let room = MAX_SITE_PAGES - known.size;
  const result: StoreResult = { added: [], duplicates: [], overLimit: [] };
  const now = clock.now();
  const rows = [];
  for (const page of pages) {
    if (known.has(page.url)) {
      result.duplicates.push(page.url);
      continue;
    }
    known.add(page.url);
    if (room <= 0) {
      result.overLimit.push(page.url);
      continue;
    }
    room--;
    const id = newId('page');
    rows.push({ id, workspace_id: workspaceId, url: page.url, title: page.title ?? null, keywords: toJson(page.keywords ?? []), source, created_at: now });
    result.added.push({ pageId: id, url: page.url });
  }
  if (rows.length > 0) await db.insertInto('site_pages').values(rows).execute();
  return result;
}

/** add_site_pages: every page must be on the workspace's own site; the whole call is refused otherwise. */
export async function addSitePages(db: Kysely<Database>, clock: Clock, workspaceId: string, pages: NewSitePage[]) {
  const website = await workspaceWebsite(db, workspaceId);
  const site = siteOf(website);
  const normalised = pages.map((page, index) => {
    const url = new URL(page.url);
    if (siteOf(url) !== site) throw BadInputError.field(`pages[${index}].url`, `must be on the workspace's site (${site}); ${url.hostname} is not`);
    return { ...page, url: pageUrl(url) };
  });
  const stored = await storeSitePages(db, clock, workspaceId, normalised, 'manual');
  if (stored.overLimit.length > 0) {
    throw BadInputError.field('pages', `the workspace keeps at most ${MAX_SITE_PAGES} site pages; ${stored.added.length} more fit`);
  }
  return { added: stored.added, duplicates: stored.duplicates };
}
