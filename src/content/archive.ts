import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { toIso } from '../shared/time.js';
import { cancelPendingDeliveries } from '../publishing/deliveries.js';
import { findArticle } from './articles.js';

/**
 * Archives an article for good: it is never written, refreshed or published again, and nothing is sent to the
 * customer's site (deliveries still waiting are cancelled), so a live post stays up as it is. Archiving an archived article answers the same (alreadyArchived: true).
 */
export async function archiveContent(db: Kysely<Database>, clock: Clock, workspaceId: string, contentId: string) {
  const article = await findArticle(db, workspaceId, contentId);
  if (article.writing_job_id !== null) {
    throw BadInputError.field('contentId', 'the article is still being written; archive it once the write job has ended (see list_jobs)');
  }
  const alreadyArchived = article.status === 'archived';
  const archivedAt = article.archived_at ?? clock.now();
  if (!alreadyArchived) {
    await db.updateTable('articles').set({ status: 'archived', archived_at: archivedAt, updated_at: archivedAt }).where('id', '=', article.id).execute();
    // Refreshing stops: an update still waiting to be sent is not sent; what is live stays as it is.
    const waiting = await db.selectFrom('deliveries').select('destination_id').distinct().where('article_id', '=', article.id).where('state', '=', 'pending').execute();
    for (const { destination_id } of waiting) {
      await cancelPendingDeliveries(db, clock, { destinationId: destination_id, articleId: article.id }, 'the article was archived');
    }
  }
  return {
    contentId: article.id,
    title: article.title,
    status: 'archived' as const,
    previousStatus: alreadyArchived ? null : article.status,
    archivedAt: toIso(archivedAt),
    alreadyArchived,
    url: article.url,
  };
}
