import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { findArticle } from './articles.js';
import { renderArticle } from './render.js';

/** A written article as it would be published now (internal links, FAQ, related reading), without recording anything. */
export async function previewArticle(db: Kysely<Database>, clock: Clock, workspaceId: string, contentId: string) {
  const article = await findArticle(db, workspaceId, contentId);
  const rendered = await renderArticle(db, clock, workspaceId, article, { canonicalUrl: null, recordLinks: false });
  return {
    contentId: article.id,
    title: article.title,
    metaTitle: article.meta_title,
    metaDescription: article.meta_description,
    html: rendered.html,
    internalLinks: rendered.links.length,
  };
}
