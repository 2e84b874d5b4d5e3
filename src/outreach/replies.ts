import type { Kysely } from 'kysely';
import { simpleParser, type ParsedMail, type StructuredHeader } from 'mailparser';
import type { Database } from '../../db/schema.js';
import { noteBrokenConnection } from '../changes/connections.js';
import { recordChanges } from '../changes/record.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { enqueueJob, workspacesWithJob } from '../jobs/queue.js';
import { RetryableJobError, type ClaimedJob, type JobDeps, type JobHandler } from '../jobs/worker.js';
import { readInbox, type InboxPosition } from './imap.js';
import { MailConnectionError, MailLoginRefused } from './mailHosts.js';
import { findMailbox, imapAccount, mailboxPagePath } from './mailbox.js';
import { normaliseAddress, suppress } from './messages.js';
import { moveProspect } from './stages.js';

const MAX_BODY_CHARS = 50_000;

/** Phrases that ask not to be written to again, looked for in the reply's own text (quoted lines left out). */
const STOP_PHRASES =
  /\b(unsubscribe|remove me|take me off|opt me out|stop (e-?mailing|emailing|writing|contacting|sending)|please stop|do not (contact|e-?mail|write)|don'?t (contact|e-?mail|write to) me)\b|^\s*stop\s*[.!]?\s*$/im;

/** Lines that introduce the quoted message: Gmail, Apple Mail, Thunderbird (English, French, German), Outlook's old separator. */
const QUOTE_INTRO = [/^On .+wrote:$/i, /^Le .+a écrit ?:$/i, /^Am .+schrieb .*:$/i, /^-{2,}\s*(Original Message|Message d'origine|Ursprüngliche Nachricht)\s*-{2,}/i];
/** Outlook's quoted header lines (English, French, German). */
const QUOTED_HEADER = /^(From|Sent|Date|To|Cc|Subject|De|Envoyé|À|Objet|Von|Gesendet|An|Betreff)\s?:/i;
const QUOTED_FROM = /^(From|De|Von)\s?:/i;
const QUOTED_SENT = /^(Sent|Date|Envoyé|Gesendet|Datum)\s?:/i;

/** Whether the quoted message starts at line `i`. */
function quoteStarts(lines: readonly string[], i: number): boolean {
  const line = lines[i]!.trim();
  if (QUOTE_INTRO.some((intro) => intro.test(line))) return true;
  const next = lines
    .slice(i + 1, i + 6)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // Gmail wraps a long intro: "On Mon, 23 Nov 2026 at 10:00, Ada <ada@acme.example>" then "wrote:".
  if (/^On /i.test(line) && /^wrote:$/i.test(next[0] ?? '')) return true;
  // Outlook and Gmail mobile: a line of underscores above the quoted headers.
  if (/^_{5,}$/.test(line) && next[0] !== undefined && QUOTED_HEADER.test(next[0])) return true;
  // Outlook without the line: a From: header at the line start with a Sent: or Date: header right below it.
  return QUOTED_FROM.test(lines[i]!) && next.slice(0, 3).some((l) => QUOTED_SENT.test(l));
}

/** The reply's own words: quoted lines and everything from the quoted message's intro or headers on are left out. */
export function ownText(text: string): string {
  const all = text.split(/\r?\n/);
  const lines: string[] = [];
  for (let i = 0; i < all.length; i++) {
    if (quoteStarts(all, i)) break;
    if (!all[i]!.trimStart().startsWith('>')) lines.push(all[i]!);
  }
  return lines.join('\n').trim();
}

/** `opt_out`: the unsubscribe button (List-Unsubscribe mailto, subject "unsubscribe"); `asked`: the words of a reply. */
export function stopRequest(subject: string, text: string): 'opt_out' | 'asked' | undefined {
  if (/^\s*unsubscribe\s*$/i.test(subject)) return 'opt_out';
  return STOP_PHRASES.test(ownText(text)) ? 'asked' : undefined;
}

function contentType(mail: ParsedMail): StructuredHeader | undefined {
  const header = mail.headers.get('content-type');
  return typeof header === 'object' && header !== null && 'value' in header && typeof header.value === 'string' ? (header as StructuredHeader) : undefined;
}

/** A delivery status notification: a multipart/report of delivery status, or mail from the mailer daemon. */
export function isBounce(mail: ParsedMail, sender: string): boolean {
  const type = contentType(mail);
  if (type?.value.toLowerCase() === 'multipart/report' && (type.params['report-type'] ?? '').toLowerCase() === 'delivery-status') return true;
  return /^(mailer-daemon|postmaster)@/i.test(sender);
}

function messageIdsIn(text: string): string[] {
  return [...new Set(text.match(/<[^<>\s@]+@[^<>\s]+>/g) ?? [])];
}

function referencesOf(mail: ParsedMail): string[] {
  const references = mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : mail.references.split(/\s+/);
  return [...(mail.inReplyTo === undefined ? [] : messageIdsIn(mail.inReplyTo)), ...references.filter((id) => id !== '')];
}

/** The bounced address and the send it answers: the DSN's Final-Recipient, else the recipient of the send it quotes. */
async function recordBounce(db: Kysely<Database>, clock: Clock, workspaceId: string, raw: string): Promise<string | undefined> {
  const ids = messageIdsIn(raw);
  const sent =
    ids.length === 0
      ? undefined
      : await db
          .selectFrom('outreach_messages')
          .select(['id', 'to_address'])
          .where('workspace_id', '=', workspaceId)
          .where('direction', '=', 'out')
          .where('message_id', 'in', ids)
          .executeTakeFirst();
  const finalRecipient = /^(?:Final|Original)-Recipient:\s*rfc822;\s*<?([^\s<>;]+@[^\s<>;]+)>?/im.exec(raw)?.[1];
  const address = finalRecipient ?? sent?.to_address;
  if (address === undefined) return undefined;
  // Only addresses this workspace wrote to: a DSN about other mail of the owner's is none of outreach's business.
  const ours = await db
    .selectFrom('outreach_messages')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('direction', '=', 'out')
    .where('to_address', '=', normaliseAddress(address))
    .executeTakeFirst();
  if (ours === undefined && sent === undefined) return undefined;
  const status = /^Status:\s*([0-9.]+)/im.exec(raw)?.[1];
  await suppress(db, clock, workspaceId, address, 'bounce');
  if (sent !== undefined) {
    await db
      .updateTable('outreach_messages')
      .set({ error: `bounced${status === undefined ? '' : ` (status ${status})`}`, updated_at: clock.now() })
      .where('id', '=', sent.id)
      .execute();
  }
  return address;
}

/**
 * The prospect a message belongs to: by the thread it answers (In-Reply-To, References naming one of our sends), else
 * by its sender being an address we sent to. A prospect's contact address that was never written to proves nothing:
 * their other mail to the owner is not an outreach reply, and filing it would read it as one (and move the prospect).
 */
async function threadOf(db: Kysely<Database>, workspaceId: string, mail: ParsedMail, sender: string): Promise<string | undefined> {
  const ids = referencesOf(mail);
  if (ids.length > 0) {
    const answered = await db
      .selectFrom('outreach_messages')
      .select('prospect_id')
      .where('workspace_id', '=', workspaceId)
      .where('direction', '=', 'out')
      .where('message_id', 'in', ids)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (answered !== undefined) return answered.prospect_id;
  }
  // A send that reached the mail server: sent, or cut off while sending (it may have gone out).
  const written = await db
    .selectFrom('outreach_messages')
    .select('prospect_id')
    .where('workspace_id', '=', workspaceId)
    .where('direction', '=', 'out')
    .where('to_address', '=', sender)
    .where('message_id', 'is not', null)
    .where('state', 'in', ['sent', 'sending', 'failed'])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return written?.prospect_id;
}

export type Ingested = 'reply' | 'bounce' | 'duplicate' | 'unrelated';

/**
 * Files one message read from the mailbox, in the caller's transaction: a bounce suppresses the address; a message of
 * an outreach thread is stored as received and moves a contacted prospect to replied; anything else stays out.
 */
export async function ingestMessage(db: Kysely<Database>, clock: Clock, workspaceId: string, mailboxAddress: string, source: Buffer): Promise<Ingested> {
  const mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  const sender = normaliseAddress(mail.from?.value[0]?.address ?? '');
  if (isBounce(mail, sender)) return (await recordBounce(db, clock, workspaceId, source.toString('utf8'))) === undefined ? 'unrelated' : 'bounce';
  if (sender === '' || sender === mailboxAddress) return 'unrelated';
  if (mail.messageId !== undefined) {
    const seen = await db.selectFrom('outreach_messages').select('id').where('workspace_id', '=', workspaceId).where('message_id', '=', mail.messageId).executeTakeFirst();
    if (seen !== undefined) return 'duplicate';
  }
  const prospectId = await threadOf(db, workspaceId, mail, sender);
  if (prospectId === undefined) return 'unrelated';
  const now = clock.now();
  const subject = mail.subject ?? '';
  const text = (mail.text ?? '').slice(0, MAX_BODY_CHARS);
  const references = referencesOf(mail);
  const messageRowId = newId('msg');
  await db
    .insertInto('outreach_messages')
    .values({
      id: messageRowId,
      workspace_id: workspaceId,
      prospect_id: prospectId,
      direction: 'in',
      state: 'received',
      to_address: mailboxAddress,
      from_address: sender,
      subject,
      body_text: text,
      message_id: mail.messageId ?? null,
      in_reply_to: mail.inReplyTo ?? null,
      references: references.length === 0 ? null : references.join(' '),
      queued_for: null,
      sent_at: mail.date === undefined || Number.isNaN(mail.date.getTime()) ? now : mail.date.getTime(),
      error: null,
      job_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const stop = stopRequest(subject, text);
  if (stop !== undefined) await suppress(db, clock, workspaceId, sender, stop);
  // An out-of-office answer is filed in the thread but is no reply from the person.
  const autoSubmitted = String(mail.headers.get('auto-submitted') ?? 'no').toLowerCase();
  if (autoSubmitted === 'no') {
    const prospect = await db.selectFrom('outreach_prospects').selectAll().where('id', '=', prospectId).executeTakeFirstOrThrow();
    if (prospect.stage === 'contacted') await moveProspect(db, clock, prospect, 'replied');
    // Keyed by the mail's own Message-ID: two reads of the mailbox that both file it record one change.
    await recordChanges(db, clock, workspaceId, [
      {
        kind: 'outreach.replied',
        dedupeKey: mail.messageId ?? messageRowId,
        title: `${sender} (${prospect.domain}) replied to outreach${subject === '' ? '' : `: "${subject.slice(0, 120)}"`}`,
        details: {
          prospectId,
          domain: prospect.domain,
          pageUrl: prospect.page_url,
          from: sender,
          subject,
          messageId: messageRowId,
          excerpt: ownText(text).slice(0, 500),
          stopRequested: stop !== undefined,
        },
      },
    ]);
  }
  return 'reply';
}

/** Reads the mailbox's inbox from where the last read stopped and files what it finds. */
export const outreachRepliesJob: JobHandler = {
  async run(job: ClaimedJob, { db, clock, services }: JobDeps) {
    const mailbox = await findMailbox(db, job.workspaceId);
    const account = mailbox === undefined ? undefined : imapAccount(mailbox, services.credentials);
    if (mailbox === undefined || account === undefined) return { skipped: 'replies are not read for this workspace' };
    const { row } = mailbox;
    const position: InboxPosition | null =
      row.imap_uid_validity === null || row.imap_last_uid === null ? null : { uidValidity: Number(row.imap_uid_validity), lastUid: Number(row.imap_last_uid) };
    let read;
    try {
      read = await readInbox(services.mail, account, position, clock.now());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('outreach_mailboxes').set({ imap_error: reason, imap_checked_at: clock.now() }).where('workspace_id', '=', job.workspaceId).execute();
        if (!(error instanceof MailLoginRefused)) return;
        // The stored password names the breakage: the same one refused on every poll is one change.
        await noteBrokenConnection(trx, clock, job.workspaceId, {
          connection: 'mailbox',
          provider: `The outreach mailbox's IMAP server (${row.imap_host ?? ''})`,
          credential: `${row.imap_user ?? ''}:${row.imap_password ?? ''}`,
          error: reason,
          reconnectAt: mailboxPagePath(job.workspaceId),
        });
      });
      if (error instanceof MailConnectionError) throw new RetryableJobError(reason);
      return { failed: reason };
    }
    const counts: Record<Ingested, number> = { reply: 0, bounce: 0, duplicate: 0, unrelated: 0 };
    for (const message of read.messages) {
      // Each message with the position after it: a run cut short goes on from the last message filed.
      await db.transaction().execute(async (trx) => {
        counts[await ingestMessage(trx, clock, job.workspaceId, mailbox.fromAddress, message.source)] += 1;
        await trx
          .updateTable('outreach_mailboxes')
          .set({ imap_uid_validity: read.position.uidValidity, imap_last_uid: message.uid })
          .where('workspace_id', '=', job.workspaceId)
          .execute();
      });
    }
    await db
      .updateTable('outreach_mailboxes')
      .set({ imap_uid_validity: read.position.uidValidity, imap_last_uid: read.position.lastUid, imap_checked_at: clock.now(), imap_error: null })
      .where('workspace_id', '=', job.workspaceId)
      .execute();
    return { read: read.messages.length, ...counts };
  },
};

/** The sweep: a read of each mailbox that has IMAP settings and no read queued or running yet. */
export async function queueMailboxReads(db: Kysely<Database>, clock: Clock): Promise<number> {
  const due = await db
    .selectFrom('outreach_mailboxes')
    .select('workspace_id')
    .where('imap_host', 'is not', null)
    .where('workspace_id', 'not in', workspacesWithJob(db, 'outreach_replies'))
    .execute();
  for (const { workspace_id: workspaceId } of due) await enqueueJob(db, clock, { workspaceId, kind: 'outreach_replies', subjectId: workspaceId, maxAttempts: 3 });
  return due.length;
}
