import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { toIso } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { findArticle, type ArticleRow } from './articles.js';

const DAY_MS = 86_400_000;
/** A slot may be written when it is past due or at most this far ahead. */
export const GENERATE_AHEAD_MS = 3 * DAY_MS;
/** Articles whose writing may be requested in any rolling 24 hours, per workspace. */
export const WRITES_PER_DAY = 5;

interface GenerateCheck {
  article: ArticleRow;
  withinWindow: boolean;
  withinDailyLimit: boolean;
  writesInLastDay: number;
  /** The earliest time both rules allow the write: now when they already do. */
  nextWriteAt: number;
}

/** Why an article cannot be written at all, whatever the time: only a planned row that is not being written can. */
function refusal(article: ArticleRow): string | undefined {
  if (article.writing_job_id !== null) return 'is being written now; wait for the write to finish (list_jobs shows it)';
  if (article.status === 'archived') return 'is archived; archived articles cannot be written';
  if (article.status !== 'planned') return `is already written (status ${article.status}); only planned articles can be generated`;
  return undefined;
}

/** The article, and whether its slot and the workspace's rolling 24-hour volume allow writing it now. */
async function checkGenerate(db: Kysely<Database>, workspaceId: string, articleId: string, now: number): Promise<GenerateCheck> {
  const article = await findArticle(db, workspaceId, articleId);
  const refused = refusal(article);
  if (refused !== undefined) throw BadInputError.field('contentId', `article ${articleId} ${refused}`);
  const recent = await db
    .selectFrom('articles')
    .select('write_requested_at')
    .where('workspace_id', '=', workspaceId)
    .where('write_requested_at', '>', now - DAY_MS)
    .orderBy('write_requested_at', 'desc')
    .limit(WRITES_PER_DAY)
    .execute();
  const withinDailyLimit = recent.length < WRITES_PER_DAY;
  // The volume frees up when the oldest of the latest five requests leaves the 24-hour window.
  const limitFreeAt = withinDailyLimit ? now : recent[WRITES_PER_DAY - 1]!.write_requested_at! + DAY_MS;
  const windowOpensAt = article.scheduled_at - GENERATE_AHEAD_MS;
  return {
    article,
    withinWindow: now >= windowOpensAt,
    withinDailyLimit,
    writesInLastDay: recent.length,
    nextWriteAt: Math.max(now, windowOpensAt, limitFreeAt),
  };
}

function whyNotNow(check: GenerateCheck): string[] {
  const reasons: string[] = [];
  if (!check.withinWindow) {
    reasons.push(`its slot (${toIso(check.article.scheduled_at)}) is more than 3 days ahead; only past-due slots and slots up to 3 days ahead can be written now`);
  }
  if (!check.withinDailyLimit) reasons.push(`${WRITES_PER_DAY} articles were already written in the last 24 hours, the most allowed`);
  return reasons;
}

/** The dry run: what generating would do, whether the daily volume allows it, and when it can happen. */
export async function describeGenerate(db: Kysely<Database>, clock: Clock, workspaceId: string, articleId: string) {
  const check = await checkGenerate(db, workspaceId, articleId, clock.now());
  const { article } = check;
  const reasons = whyNotNow(check);
  const slot = `Its publish slot stays ${toIso(article.scheduled_at)}.`;
  const note =
    reasons.length === 0
      ? `Would write "${article.title}" with the writer model now (${check.writesInLastDay} of ${WRITES_PER_DAY} writes used in the last 24 hours). ${slot} Repeat with confirm: true to start.`
      : `Cannot write "${article.title}" now: ${reasons.join('; ')}. It can be written from ${toIso(check.nextWriteAt)}. ${slot}`;
  return { note, details: { withinDailyLimit: check.withinDailyLimit, nextWriteAt: toIso(check.nextWriteAt) } };
}

/**
 * Starts writing a planned article: records the request (it counts against the rolling 24-hour volume) and queues
 * the write_article job. The article reads as being written until the job ends; its slot does not move.
 */
export async function startGenerate(db: Kysely<Database>, clock: Clock, workspaceId: string, articleId: string) {
  const now = clock.now();
  // Two requests at once must not both pass the count of the last 24 hours.
  await lockWorkspace(db, workspaceId);
  const check = await checkGenerate(db, workspaceId, articleId, now);
  const reasons = whyNotNow(check);
  if (reasons.length > 0) {
    throw BadInputError.field('contentId', `article ${articleId} cannot be written now: ${reasons.join('; ')}; it can be written from ${toIso(check.nextWriteAt)}`);
  }
  const jobId = await enqueueJob(db, clock, { workspaceId, kind: 'write_article', subjectId: articleId, payload: { articleId } });
  await db
    .updateTable('articles')
    .set({ write_requested_at: now, writing_job_id: jobId, last_write_error: null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', articleId)
    .execute();
  return { contentId: articleId, jobId, status: 'writing' as const, scheduledAt: toIso(check.article.scheduled_at) };
}
