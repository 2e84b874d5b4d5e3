import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { sha256Hex } from '../secrets.js';
import { type Classification, classifyUserAgent } from './classify.js';

/** The workspace whose destination (not removed) has this signing secret, or null. */
export async function workspaceForServiceKey(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('destinations').select('workspace_id').where('secret_hash', '=', sha256Hex(key)).where('removed_at', 'is', null).executeTakeFirst();
  return row?.workspace_id ?? null;
}

/** The path part only, percent-encoding and trailing slash normalised: /blog/x/?utm=1 reads as /blog/x. */
function normalisePath(path: string): string {
  // Appended rather than resolved: a path like //host/x must stay a path.
  const { pathname } = new URL(`https://site.invalid${path.startsWith('/') ? '' : '/'}${path}`);
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/**
 * The article at this path: the one whose address (the URL the receiver returned, so a renamed path too) has this
 * path, else a published article whose slug is the path's last segment.
 */
export async function articleAtPath(db: Kysely<Database>, workspaceId: string, path: string): Promise<string | null> {
  const wanted = normalisePath(path);
  const candidates = await db
    .selectFrom('articles')
    .select(['id', 'url'])
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`url like ${`%${likeEscape(wanted)}%`} escape '\\'`)
    .orderBy('published_at', 'desc')
    .execute();
  const byUrl = candidates.find((row) => row.url !== null && URL.canParse(row.url) && normalisePath(new URL(row.url).pathname) === wanted);
  if (byUrl !== undefined) return byUrl.id;
  const slug = wanted.split('/').filter((segment) => segment !== '').pop();
  if (slug === undefined) return null;
  const bySlug = await db
    .selectFrom('articles')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'published')
    .where('slug', '=', slug)
    .orderBy('published_at', 'desc')
    .executeTakeFirst();
  return bySlug?.id ?? null;
}

export interface RecordedVisit extends Classification {
  articleId: string | null;
}

/**
 * Stores one reported crawler visit, classified and matched to its article; agents on no list count as unknown. A
 * visit the CMS plugin reported (`plugin`: its name and version) also notes that version as the plugin's latest.
 */
export async function recordCrawlerVisit(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  visit: { userAgent: string; path: string; plugin?: string | undefined },
): Promise<RecordedVisit> {
  const classification = classifyUserAgent(visit.userAgent);
  const articleId = await articleAtPath(db, workspaceId, visit.path);
  await db
    .insertInto('crawler_visits')
    .values({
      id: newId('visit'),
      workspace_id: workspaceId,
      path: visit.path,
      article_id: articleId,
      user_agent: visit.userAgent,
      crawler: classification.crawler,
      category: classification.category,
      operator: classification.operator,
      visited_at: clock.now(),
      reporter: visit.plugin === undefined ? 'site_hook' : 'cms_plugin',
    })
    .execute();
  if (visit.plugin !== undefined) await db.updateTable('analytics_sites').set({ cms_plugin_version: visit.plugin }).where('workspace_id', '=', workspaceId).execute();
  return { ...classification, articleId };
}
