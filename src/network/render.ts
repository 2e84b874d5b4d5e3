import type { Kysely } from 'kysely';
import type { Database, LinkAttribute } from '../../db/schema.js';

/** The network link an article hosts while its placement is live. */
export interface NetworkLink {
  url: string;
  anchor: string;
  rel: LinkAttribute;
}

/** The `rel` values a rendered link may carry: the sanitiser allows these and nothing else. */
export const NETWORK_REL_VALUES = ['sponsored', 'nofollow'] as const;

export async function liveNetworkLink(db: Kysely<Database>, articleId: string): Promise<NetworkLink | undefined> {
  const row = await db
    .selectFrom('network_placements')
    .select(['target_url', 'anchor_text', 'rel'])
    .where('host_article_id', '=', articleId)
    .where('state', '=', 'live')
    .orderBy('live_at')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : { url: row.target_url, anchor: row.anchor_text, rel: row.rel };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A short "Related reading" paragraph, placed after the body and before the FAQ; a dofollow link has no rel. */
export function relatedReadingHtml(link: NetworkLink | undefined): string {
  if (link === undefined) return '';
  const rel = link.rel === 'dofollow' ? '' : ` rel="${link.rel}"`;
  return `<p>Related reading: <a href="${escapeHtml(link.url)}"${rel}>${escapeHtml(link.anchor)}</a></p>\n`;
}

export function relatedReadingMarkdown(link: NetworkLink | undefined): string {
  if (link === undefined) return '';
  const anchor = link.anchor.replace(/([\\[\]])/g, '\\$1');
  const url = link.url.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20');
  return `\n\nRelated reading: [${anchor}](${url})`;
}
