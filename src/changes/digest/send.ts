import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { enqueueJob } from '../../jobs/queue.js';
import { RetryableJobError, type JobHandler } from '../../jobs/worker.js';
import { NotificationMailRefused, type NotificationMailer } from '../../notifications/mailer.js';
import { mailRecipients, unsubscribeToken, unsubscribeUrl, type MailRecipient } from '../../notifications/recipients.js';
import type { Services } from '../../outsideServices.js';
import { CHANGES_PATH, pageUrl } from '../../web/paths.js';
import { buildDigest } from './digest.js';
import { renderDigestMail, TREND_CID } from './render.js';
import { dueWeek, weekOfDate, type DigestWeek } from './week.js';

/** Attempts at one person's digest of one week: a server that cannot take it after these is recorded as failed. */
export const DIGEST_ATTEMPTS = 5;

export interface DigestSendPayload {
  userId: string;
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  /** The service's public address when the digest was queued: the links in the mail. */
  publicUrl: string;
}

export interface DigestDeps {
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  logger: Logger;
  publicUrl: string;
}

export type DigestOutcome = { state: 'sent'; messageId: string } | { state: 'failed' | 'skipped'; error: string };

/** The same Message-ID on every attempt, so a server that took a first attempt whose answer was lost can tell the retry is the same message. */
function messageIdOf(publicUrl: string, workspaceId: string, userId: string, week: string): string {
  return `<digest.${week}.${workspaceId}.${userId}@${new URL(publicUrl).hostname}>`;
}

/**
 * Records the person's digest of the week as pending, once: true when this call made the row (then the caller sends),
 * false when there is one already (sent, failed, or another instance's). The primary key decides between instances.
 */
async function recordPending(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string, week: string): Promise<boolean> {
  const inserted = await db
    .insertInto('digest_sends')
    .values({ workspace_id: workspaceId, user_id: userId, week, state: 'pending', attempts: 0, message_id: null, error: null, created_at: clock.now(), sent_at: null })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id', 'week']).doNothing())
    .executeTakeFirst();
  return (inserted.numInsertedOrUpdatedRows ?? 0n) === 1n;
}

async function recordOutcome(db: Kysely<Database>, clock: Clock, key: { workspaceId: string; userId: string; week: string }, outcome: DigestOutcome): Promise<void> {
  await db
    .updateTable('digest_sends')
    .set(
      outcome.state === 'sent'
        ? { state: 'sent', message_id: outcome.messageId, error: null, sent_at: clock.now() }
        : { state: outcome.state, error: outcome.error.slice(0, 500) },
    )
    .where('workspace_id', '=', key.workspaceId)
    .where('user_id', '=', key.userId)
    .where('week', '=', key.week)
    .execute();
}

/** The person as a recipient of this workspace's digest now: undefined when they left it or turned the digest off. */
async function currentRecipient(db: Kysely<Database>, workspaceId: string, userId: string): Promise<MailRecipient | undefined> {
  return (await mailRecipients(db, workspaceId)).find((recipient) => recipient.userId === userId && recipient.digest);
}

/**
 * One attempt at a pending digest: counts the attempt, builds the week's digest, sends it and records the outcome. A
 * refusal for good is recorded as failed; any other failure is thrown (after its error is recorded) for the caller to
 * retry or give up.
 */
async function attemptDigest(deps: DigestDeps, mailer: NotificationMailer, workspaceId: string, userId: string, week: DigestWeek): Promise<DigestOutcome> {
  const { db, clock, services, logger, publicUrl } = deps;
  const key = { workspaceId, userId, week: week.key };
  const recipient = await currentRecipient(db, workspaceId, userId);
  if (recipient === undefined) {
    const outcome: DigestOutcome = { state: 'skipped', error: 'the person left the workspace or turned the digest off before it was sent' };
    await recordOutcome(db, clock, key, outcome);
    return outcome;
  }
  await db
    .updateTable('digest_sends')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('week', '=', week.key)
    .execute();
  const workspace = await db.selectFrom('workspaces').select(['name', 'website_url']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const digest = await buildDigest(db, services.writer, workspaceId, week, clock.now(), (error) =>
    logger.warn({ err: error, workspaceId, week: week.key }, 'digest summary: the writer failed; the plain summary is used'),
  );
  const token = await unsubscribeToken(db, clock, workspaceId, userId);
  const unsubscribe = unsubscribeUrl(publicUrl, token, 'digest');
  const rendered = renderDigestMail(digest, {
    workspaceName: workspace.name,
    websiteUrl: workspace.website_url,
    dashboardUrl: `${publicUrl}${pageUrl(workspaceId, '')}`,
    changesUrl: `${publicUrl}${pageUrl(workspaceId, CHANGES_PATH)}`,
    settingsUrl: `${publicUrl}${pageUrl(workspaceId, 'email')}`,
    unsubscribeUrl: unsubscribe,
  });
  const messageId = messageIdOf(publicUrl, workspaceId, userId, week.key);
  try {
    await mailer.send({
      to: recipient.email,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId,
      unsubscribeUrl: unsubscribe,
      inlineImages: [{ cid: TREND_CID, filename: 'score-trend.png', contentType: 'image/png', content: rendered.chart }],
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof NotificationMailRefused) {
      const outcome: DigestOutcome = { state: 'failed', error: message };
      await recordOutcome(db, clock, key, outcome);
      return outcome;
    }
    await db.updateTable('digest_sends').set({ error: message.slice(0, 500) }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).where('week', '=', week.key).execute();
    throw error;
  }
  const outcome: DigestOutcome = { state: 'sent', messageId };
  await recordOutcome(db, clock, key, outcome);
  return outcome;
}

/** The job that sends one pending digest; the worker's lease keeps a second instance off it, its backoff spaces the retries. */
export const digestSendJob: JobHandler = {
  async run(job, deps) {
    const payload = job.payload as unknown as DigestSendPayload;
    const row = await deps.db
      .selectFrom('digest_sends')
      .select('state')
      .where('workspace_id', '=', job.workspaceId)
      .where('user_id', '=', payload.userId)
      .where('week', '=', payload.week)
      .executeTakeFirst();
    // Sent already (an attempt whose job record was lost), or settled by the operator's command.
    if (row === undefined || row.state !== 'pending') return { state: row?.state ?? 'missing' };
    const mailer = deps.services.notificationMail;
    if (mailer === undefined) {
      const outcome: DigestOutcome = { state: 'failed', error: 'no mail server: SMTP_URL or SMTP_HOST, and MAIL_FROM, are not set' };
      await recordOutcome(deps.db, deps.clock, { workspaceId: job.workspaceId, userId: payload.userId, week: payload.week }, outcome);
      return outcome;
    }
    await deps.progress(`sending the digest of the week of ${payload.week}`);
    try {
      return await attemptDigest({ ...deps, publicUrl: payload.publicUrl }, mailer, job.workspaceId, payload.userId, weekOfDate(payload.week));
    } catch (error) {
      throw new RetryableJobError(error instanceof Error ? error.message : String(error));
    }
  },
  async onFailed(job, reason, deps) {
    const payload = job.payload as unknown as DigestSendPayload;
    await deps.db
      .updateTable('digest_sends')
      .set({ state: 'failed', error: reason.slice(0, 500) })
      .where('workspace_id', '=', job.workspaceId)
      .where('user_id', '=', payload.userId)
      .where('week', '=', payload.week)
      .where('state', '=', 'pending')
      .execute();
  },
};

/**
 * Queues the digests due now: for each person who gets the digest, last week's once their day and hour have come in
 * their time zone. The pending row and its job are made in one transaction, and the row's key lets one instance make
 * it: each digest is queued once, whatever the number of instances.
 */
export async function queueDueDigests(db: Kysely<Database>, clock: Clock, publicUrl: string): Promise<number> {
  const now = clock.now();
  const workspaces = await db.selectFrom('workspaces').select('id').orderBy('id').execute();
  let queued = 0;
  for (const { id: workspaceId } of workspaces) {
    for (const recipient of await mailRecipients(db, workspaceId)) {
      if (!recipient.digest) continue;
      const week = dueWeek(now, recipient);
      if (week === null) continue;
      queued += await db.transaction().execute(async (trx) => {
        if (!(await recordPending(trx, clock, workspaceId, recipient.userId, week.key))) return 0;
        const payload: DigestSendPayload = { userId: recipient.userId, week: week.key, publicUrl };
        await enqueueJob(trx, clock, { workspaceId, kind: 'digest_send', subjectId: recipient.userId, payload: { ...payload }, maxAttempts: DIGEST_ATTEMPTS });
        return 1;
      });
    }
  }
  return queued;
}

/** The digest sweep: every few minutes, the digests due; with no mail server, one log line and nothing else. */
export function digestSweep(db: Kysely<Database>, clock: Clock, services: Services, logger: Logger, publicUrl: string) {
  let said = false;
  return async () => {
    if (services.notificationMail === undefined) {
      if (!said) logger.info('weekly digests are not sent: no mail server (set SMTP_URL or SMTP_HOST, and MAIL_FROM)');
      said = true;
      return { queued: 0 };
    }
    return { queued: await queueDueDigests(db, clock, publicUrl) };
  };
}

export interface OperatorSend {
  workspaceId: string;
  userId: string;
  email: string;
  week: string;
  outcome: DigestOutcome | { state: 'already'; existing: string };
}

/**
 * The operator's send of a week's digest now, in this process: to each recipient of the digest once per person and
 * week (a row already there is reported, not sent again) unless `force`, which sends again and records the new
 * attempt on the same row. A failure of any kind is recorded as failed: nothing retries it later.
 */
export async function sendDigestsNow(deps: DigestDeps, mailer: NotificationMailer, targets: ReadonlyArray<{ workspaceId: string; recipient: MailRecipient }>, week: DigestWeek, force: boolean): Promise<OperatorSend[]> {
  const { db, clock } = deps;
  const sends: OperatorSend[] = [];
  for (const { workspaceId, recipient } of targets) {
    const base = { workspaceId, userId: recipient.userId, email: recipient.email, week: week.key };
    if (!(await recordPending(db, clock, workspaceId, recipient.userId, week.key))) {
      const existing = await db
        .selectFrom('digest_sends')
        .select('state')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', recipient.userId)
        .where('week', '=', week.key)
        .executeTakeFirstOrThrow();
      if (!force) {
        sends.push({ ...base, outcome: { state: 'already', existing: existing.state } });
        continue;
      }
      await db.updateTable('digest_sends').set({ state: 'pending', error: null }).where('workspace_id', '=', workspaceId).where('user_id', '=', recipient.userId).where('week', '=', week.key).execute();
    }
    let outcome: DigestOutcome;
    try {
      outcome = await attemptDigest(deps, mailer, workspaceId, recipient.userId, week);
    } catch (error) {
      outcome = { state: 'failed', error: error instanceof Error ? error.message : String(error) };
      await recordOutcome(db, clock, { workspaceId, userId: recipient.userId, week: week.key }, outcome);
    }
    sends.push({ ...base, outcome });
  }
  return sends;
}

/** Whom the operator's command sends to: a workspace's digest recipients, or everyone whose digest of `week` is due now. */
export async function operatorTargets(db: Kysely<Database>, now: number, choice: { workspaceId: string } | { due: true }, week: DigestWeek) {
  const workspaces =
    'workspaceId' in choice ? [choice.workspaceId] : (await db.selectFrom('workspaces').select('id').orderBy('id').execute()).map((row) => row.id);
  const targets: Array<{ workspaceId: string; recipient: MailRecipient }> = [];
  for (const workspaceId of workspaces) {
    for (const recipient of await mailRecipients(db, workspaceId)) {
      if (!recipient.digest) continue;
      if ('due' in choice && dueWeek(now, recipient)?.key !== week.key) continue;
      targets.push({ workspaceId, recipient });
    }
  }
  return targets;
}
