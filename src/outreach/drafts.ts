import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { findMailbox, type Mailbox } from './mailbox.js';
import { findMessage, threadEntry, withoutOptOut, type MessageRow } from './messages.js';
import { prospectRecord } from './prospects.js';
import { findProspect, type ProspectRow } from './stages.js';

/** The latest messages a thread answer holds; a longer thread says how many it left out. */
export const THREAD_LIMIT = 100;
/**
 * Bodies in a thread answer are cut here: a draft or a send (at most 10,000 characters and the opt-out line) is always
 * whole, so it can be edited from the answer; only a long received message is cut.
 */
export const THREAD_BODY_CHARS = 20_000;

/** Who a send of the message would go to now: a first email to the prospect's contact at the time, a reply to who wrote. */
function recipient(row: MessageRow, prospect: ProspectRow): string {
  return row.state === 'draft' && row.in_reply_to === null ? (prospect.contact_email ?? row.to_address) : row.to_address;
}

function threadRecord(row: MessageRow, prospect: ProspectRow) {
  return {
    ...threadEntry(row),
    to: recipient(row, prospect),
    body: row.body_text.slice(0, THREAD_BODY_CHARS),
    queuedFor: row.queued_for === null ? null : new Date(Number(row.queued_for)).toISOString(),
    error: row.error,
  };
}

/** A prospect's whole thread, oldest first, drafts included: what an agent or a person reopens a draft from. */
export async function readThread(db: Kysely<Database>, workspaceId: string, prospectId: string) {
  const prospect = await findProspect(db, workspaceId, prospectId);
  const base = db.selectFrom('outreach_messages').where('workspace_id', '=', workspaceId).where('prospect_id', '=', prospectId);
  const [latest, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(THREAD_LIMIT).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { prospect: prospectRecord(prospect), total, omitted: Math.max(0, total - latest.length), messages: latest.reverse().map((row) => threadRecord(row, prospect)) };
}

/** A draft as draft_outreach_reply answers it, with the recipient and mailbox a send would use now. */
function draftRecord(row: MessageRow, prospect: ProspectRow, mailbox: Mailbox | undefined) {
  const to = recipient(row, prospect);
  return {
    messageId: row.id,
    prospectId: row.prospect_id,
    state: 'draft' as const,
    to: to === '' ? null : to,
    from: mailbox?.fromAddress ?? null,
    subject: row.subject,
    body: row.body_text,
    inReplyTo: row.in_reply_to,
    isReply: row.in_reply_to !== null,
  };
}

export interface DraftEdits {
  subject?: string | undefined;
  body?: string | undefined;
}

/**
 * Saves a person's or an agent's edits to a stored draft. The body is kept without the opt-out line (the send appends
 * it), so a body pasted back from a send's dry run loses it here rather than carrying it twice.
 */
export async function updateDraft(db: Kysely<Database>, clock: Clock, workspaceId: string, messageId: string, edits: DraftEdits) {
  if (edits.subject === undefined && edits.body === undefined) throw BadInputError.field('subject', 'send subject, body or both');
  const draft = await findMessage(db, workspaceId, messageId);
  if (draft.direction !== 'out' || draft.state !== 'draft') {
    throw BadInputError.field('messageId', `message ${messageId} is ${draft.direction === 'in' ? 'a received message' : draft.state}; only a draft can be edited`);
  }
  let body = draft.body_text;
  if (edits.body !== undefined) {
    // A browser's textarea posts CRLF line breaks; drafts keep the writer's LF.
    body = withoutOptOut(edits.body.replace(/\r\n?/g, '\n')).trim();
    if (body === '') throw BadInputError.field('body', 'holds only the opt-out line, which the send appends: give the text of the email');
  }
  const subject = edits.subject ?? draft.subject;
  const now = clock.now();
  const saved = await db
    .updateTable('outreach_messages')
    .set({ subject, body_text: body, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', messageId)
    .where('state', '=', 'draft')
    .executeTakeFirst();
  if (saved.numUpdatedRows !== 1n) throw BadInputError.field('messageId', `message ${messageId} was queued meanwhile; only a draft can be edited`);
  const prospect = await findProspect(db, workspaceId, draft.prospect_id);
  return draftRecord({ ...draft, subject, body_text: body, updated_at: now }, prospect, await findMailbox(db, workspaceId));
}
