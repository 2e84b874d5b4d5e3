import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { findArticle } from './articles.js';
import { findQueryByText, insertQuery } from './queries.js';

/**
 * Removes a planned title from the calendar; its keyword returns to the content ideas as a tracked query (unhidden,
 * with the title as its suggestion when it has none). A returned keyword is kept even when the pool is at the plan's
 * limit: the specification has the keyword return without condition.
 */
export async function deletePlannedTitle(db: Kysely<Database>, clock: Clock, workspaceId: string, contentId: string) {
  const article = await findArticle(db, workspaceId, contentId);
  if (article.status !== 'planned') {
    throw BadInputError.field('contentId', `only planned rows can be deleted and this article is ${article.status}; use archive_content for written articles`);
  }
  if (article.writing_job_id !== null) {
    throw BadInputError.field('contentId', 'the article is being written; it can be archived with archive_content once the write job has ended');
  }
  await db.deleteFrom('articles').where('id', '=', article.id).execute();
  const existing = await findQueryByText(db, workspaceId, article.keyword);
  if (existing !== undefined) {
    await db
      .updateTable('queries')
      .set({ hidden_at: null, suggested_title: existing.suggested_title ?? article.title })
      .where('id', '=', existing.id)
      .execute();
  }
  const query = existing ?? (await insertQuery(db, clock, workspaceId, { text: article.keyword, source: 'returned', suggestedTitle: article.title }));
  return { deleted: true as const, contentId: article.id, title: article.title, keyword: article.keyword, returnedToIdeas: { queryId: query.id, created: existing === undefined } };
}
