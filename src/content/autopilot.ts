import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors.js';
import type { Services } from '../outsideServices.js';
import { publishArticle, publishTargets } from '../publishing/publish.js';
import { startGenerate } from './generation.js';
import { policyFromStored } from './policy.js';

/** Auto-write asks for an article this long before its slot, so a slow model still makes the slot. */
export const AUTO_WRITE_AHEAD_MS = 86_400_000;

export interface AutopilotRun {
  writesRequested: number;
  published: number;
}

/**
 * What the article policy's switches do, run by the job worker about once a minute. autoWrite: planned articles
 * whose slot is within a day are written, under the same rules as generate_article (the 24-hour volume included).
 * autoPublish: written articles whose slot has come are published to the workspace's destinations.
 */
export async function runAutopilot(db: Kysely<Database>, clock: Clock, services: Services, logger: Logger): Promise<AutopilotRun> {
  const run: AutopilotRun = { writesRequested: 0, published: 0 };
  const policies = await db.selectFrom('article_policies').select(['workspace_id', 'policy']).execute();
  for (const row of policies) {
    const policy = policyFromStored(row.policy);
    const workspaceId = row.workspace_id;
    try {
      // Without a writer there is nothing to ask; the articles wait, and generate_article says what to configure.
      if (policy.autoWrite && services.writer !== undefined) run.writesRequested += await autoWrite(db, clock, workspaceId);
      if (policy.autoPublish) run.published += await autoPublish(db, clock, workspaceId);
    } catch (error) {
      logger.error({ err: error, workspaceId }, 'autopilot failed for a workspace');
    }
  }
  return run;
}

async function autoWrite(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<number> {
  const now = clock.now();
  const due = await db
    .selectFrom('articles')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'planned')
    .where('writing_job_id', 'is', null)
    // A failed write waits for a person (generate_article) rather than failing again every minute.
    .where('last_write_error', 'is', null)
    .where('scheduled_at', '<=', now + AUTO_WRITE_AHEAD_MS)
    .orderBy('scheduled_at')
    .execute();
  let requested = 0;
  for (const { id } of due) {
    try {
      await db.transaction().execute((trx) => startGenerate(trx, clock, workspaceId, id));
      requested++;
    } catch (error) {
      // The rolling 24-hour volume is used up: the rest wait for the next run.
      if (error instanceof ServiceError && error.status === 400) break;
      throw error;
    }
  }
  return requested;
}

async function autoPublish(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<number> {
  if ((await publishTargets(db, workspaceId)).length === 0) return 0;
  const due = await db
    .selectFrom('articles')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'draft')
    .where('writing_job_id', 'is', null)
    .where('scheduled_at', '<=', clock.now())
    .orderBy('scheduled_at')
    .execute();
  let published = 0;
  for (const { id } of due) {
    const done = await db.transaction().execute(async (trx) => {
      if (!(await claimDraft(trx, clock, id))) return false;
      await publishArticle(trx, clock, workspaceId, id);
      return true;
    });
    if (done) published++;
  }
  return published;
}

/**
 * Takes the draft for this publish: a conditional update that only a still-unpublished draft passes. On PostgreSQL a
 * second instance publishing the same slot waits on the row and then finds it published; on SQLite writes run one at a
 * time. So a slot is published once, whichever instances reach it together.
 */
async function claimDraft(trx: Kysely<Database>, clock: Clock, articleId: string): Promise<boolean> {
  const claimed = await trx
    .updateTable('articles')
    .set({ updated_at: clock.now() })
    .where('id', '=', articleId)
    .where('status', '=', 'draft')
    .where('writing_job_id', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n;
}
