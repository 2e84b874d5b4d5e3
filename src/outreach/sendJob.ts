import type { Kysely } from 'kysely';
import { withNamedLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { enqueueJob } from '../jobs/queue.js';
import { RetryableJobError, type ClaimedJob, type JobDeps, type JobHandler } from '../jobs/worker.js';
import { quietPeriodRefusal, stageRefusal } from './guards.js';
import { MailConnectionError } from './mailHosts.js';
import { findMailbox, smtpAccount } from './mailbox.js';
import { isSuppressed, listUnsubscribe, newMessageId, SEND_ATTEMPTS, SEND_CAP_LOCK, sendSlot, suppress } from './messages.js';
import { SmtpRefused, sendOverSmtp } from './smtp.js';
import { findProspect, moveProspect } from './stages.js';

async function fail(db: Kysely<Database>, clock: Clock, messageId: string, reason: string): Promise<void> {
  await db
    .updateTable('outreach_messages')
    .set({ state: 'failed', error: reason, updated_at: clock.now() })
    .where('id', '=', messageId)
    .where('state', 'in', ['queued', 'sending'])
    .execute();
}

/**
 * Sends one queued outreach email. The message is marked `sending` (with its Message-ID) before the SMTP exchange and
 * `sent` or `failed` after it, so an attempt that died in between is never repeated: it might have gone out, and the
 * recipient must not get it twice.
 */
export const outreachSendJob: JobHandler = {
  async run(job: ClaimedJob, { db, clock, services }: JobDeps) {
    const messageId = job.subjectId ?? '';
    const message = await db.selectFrom('outreach_messages').selectAll().where('workspace_id', '=', job.workspaceId).where('id', '=', messageId).executeTakeFirst();
    if (message === undefined) return { skipped: 'the message no longer exists' };
    if (message.state === 'sent') return { sent: true, messageId: message.message_id };
    if (message.state === 'sending') {
      await fail(db, clock, message.id, 'interrupted while sending: it may have gone out, so it is not sent again');
      return { interrupted: true };
    }
    if (message.state !== 'queued' || message.job_id !== job.id) return { skipped: `the message is ${message.state}` };
    const mailbox = await findMailbox(db, job.workspaceId);
    if (mailbox === undefined) {
      await fail(db, clock, message.id, 'the outreach mailbox was removed before the send');
      return { failed: 'no mailbox' };
    }
    const suppressed = await isSuppressed(db, job.workspaceId, message.to_address);
    if (suppressed !== undefined) {
      await fail(db, clock, message.id, `${message.to_address} was added to the suppression list (${suppressed}) before the send`);
      return { failed: 'suppressed' };
    }
    // The prospect may have been rejected, or the person written to by another send, since it was queued.
    const stage = stageRefusal(await findProspect(db, job.workspaceId, message.prospect_id));
    if (stage !== undefined) {
      await fail(db, clock, message.id, `${stage} (moved after it was queued)`);
      return { failed: 'stage' };
    }
    const now = clock.now();
    const quiet = await quietPeriodRefusal(db, mailbox, message, message.to_address, now, false);
    if (quiet !== undefined) {
      await fail(db, clock, message.id, quiet);
      return { failed: 'quiet period' };
    }
    const header = message.message_id ?? newMessageId(mailbox.fromAddress);
    const decided = await withNamedLock(db, SEND_CAP_LOCK, now, async (trx) => {
      const at = await sendSlot(trx, mailbox, now, message.id);
      if (at > now) {
        // Sends queued earlier the same day used the cap up: this one moves to the next day with room, as a new job.
        const nextJob = await enqueueJob(trx, clock, { workspaceId: job.workspaceId, kind: 'outreach_send', subjectId: message.id, runAt: at, maxAttempts: SEND_ATTEMPTS });
        await trx.updateTable('outreach_messages').set({ queued_for: at, job_id: nextJob, updated_at: now }).where('id', '=', message.id).where('state', '=', 'queued').execute();
        return { postponedTo: new Date(at).toISOString() };
      }
      const marked = await trx
        .updateTable('outreach_messages')
        .set({ state: 'sending', message_id: header, from_address: mailbox.fromAddress, error: null, updated_at: now })
        .where('id', '=', message.id)
        .where('state', '=', 'queued')
        .executeTakeFirst();
      return marked.numUpdatedRows === 1n ? undefined : { skipped: 'the message changed meanwhile' };
    });
    if (decided !== undefined) return decided;
    try {
      await sendOverSmtp(services.mail, smtpAccount(mailbox, services.credentials), {
        from: { name: mailbox.fromName, address: mailbox.fromAddress },
        to: message.to_address,
        subject: message.subject,
        text: message.body_text,
        messageId: header,
        inReplyTo: message.in_reply_to,
        references: message.references,
        listUnsubscribe: listUnsubscribe(mailbox.fromAddress),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof MailConnectionError) {
        // Nothing was accepted: the message goes back to the queue for the job's next attempt.
        await db.updateTable('outreach_messages').set({ state: 'queued', error: reason, updated_at: clock.now() }).where('id', '=', message.id).where('state', '=', 'sending').execute();
        throw new RetryableJobError(reason);
      }
      await db.transaction().execute(async (trx) => {
        await fail(trx, clock, message.id, reason);
        if (error instanceof SmtpRefused && error.recipientUnknown) await suppress(trx, clock, job.workspaceId, message.to_address, 'bounce');
      });
      return { failed: reason };
    }
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('outreach_messages').set({ state: 'sent', sent_at: clock.now(), error: null, updated_at: clock.now() }).where('id', '=', message.id).execute();
      const prospect = await findProspect(trx, job.workspaceId, message.prospect_id);
      if (prospect.stage === 'identified') await moveProspect(trx, clock, prospect, 'contacted');
    });
    return { sent: true, messageId: header };
  },

  async onFailed(job, reason, { db, clock }) {
    if (job.subjectId !== null) await fail(db, clock, job.subjectId, reason);
  },
};
