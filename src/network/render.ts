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

/** The link element itself: `rel` as the placement gives it, none only for dofollow. `text` is already escaped for where it goes. */
function anchorElement(link: NetworkLink, text: string): string {
  const rel = link.rel === 'dofollow' ? '' : ` rel="${link.rel}"`;
  return `<a href="${escapeHtml(link.url)}"${rel}>${text}</a>`;
}

/** A short "Related reading" paragraph, placed after the body and before the FAQ; a dofollow link has no rel. */
export function relatedReadingHtml(link: NetworkLink | undefined): string {
  if (link === undefined) return '';
  return `<p>Related reading: ${anchorElement(link, escapeHtml(link.anchor))}</p>\n`;
}

/**
 * The same link in the Markdown copy. Markdown's own link syntax has no rel, and a destination rendering the Markdown
 * would publish a followed link for a sponsored placement, so the link is inline HTML, which Markdown passes through.
 * The anchor text between the tags is still read as Markdown: its emphasis and link characters are backslash-escaped
 * before the HTML escaping (which adds no backslashes, so the two do not interfere).
 */
export function relatedReadingMarkdown(link: NetworkLink | undefined): string {
  if (link === undefined) return '';
  const anchor = escapeHtml(link.anchor.replace(/[\\`*_[\]~|!]/g, '\\$&'));
  return `\n\nRelated reading: ${anchorElement(link, anchor)}`;
}
