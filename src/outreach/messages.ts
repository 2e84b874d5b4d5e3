import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { takeNamedLock } from '../../db/locks.js';
import type { Database, OutreachMessagesTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { DAY_MS } from '../shared/time.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import type { Writer } from '../writer/model.js';
import { quietPeriodRefusal, stageRefusal } from './guards.js';
import { findMailbox, noMailbox, type Mailbox } from './mailbox.js';
import { findProspect, type ProspectRow } from './stages.js';

export type MessageRow = Selectable<OutreachMessagesTable>;

export const MAX_SUBJECT_CHARS = 200;
export const MAX_BODY_CHARS = 10_000;
/** Messages of the thread the writer is shown (the latest), and how much of each. */
const THREAD_IN_PROMPT = 10;
const BODY_IN_PROMPT = 3_000;
/** Sends one job may still be retried over before the mailbox takes it as refused. */
export const SEND_ATTEMPTS = 5;
/**
 * Held while a send is given its day and while a send job checks the cap and marks its message `sending`, so two
 * instances cannot both take a mailbox's last slot. One lock for every mailbox: mailboxes that share a cap are linked
 * by address or by SMTP account, and outreach volumes make the wait negligible.
 */
export const SEND_CAP_LOCK = 'outreach-send-cap';

/** Appended to every outreach email, so that the recipient can always say no. */
export const OPT_OUT_LINE = 'If you would rather not hear from me again, reply "unsubscribe" and I will not write to you again.';

/** A body pasted back from a send's dry run ends with the opt-out line: without it, so that it is never added twice. */
export function withoutOptOut(body: string): string {
  const text = body.trimEnd();
  if (!text.endsWith(OPT_OUT_LINE)) return body;
  return text.slice(0, -OPT_OUT_LINE.length).trimEnd().replace(/(?:^|\n)[ \t]*--$/, '').trimEnd();
}

export function withOptOut(body: string): string {
  return `${withoutOptOut(body).trimEnd()}\n\n--\n${OPT_OUT_LINE}`;
}

/** The mailto: address a mail client's unsubscribe button writes to: a reply with that subject suppresses the sender. */
export function listUnsubscribe(fromAddress: string): string {
  return `<mailto:${fromAddress}?subject=unsubscribe>`;
}

export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** A new Message-ID on the mailbox's own domain. */
export function newMessageId(fromAddress: string): string {
  const domain = fromAddress.split('@')[1] ?? 'localhost';
  return `<${randomBytes(16).toString('hex')}@${domain}>`;
}

export async function thread(db: Kysely<Database>, workspaceId: string, prospectId: string): Promise<MessageRow[]> {
  return db
    .selectFrom('outreach_messages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('prospect_id', '=', prospectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function threadEntry(row: MessageRow) {
  return {
    messageId: row.id,
    direction: row.direction,
    state: row.state,
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    body: row.body_text.slice(0, BODY_IN_PROMPT),
    at: new Date(Number(row.sent_at ?? row.created_at)).toISOString(),
  };
}

const draftAnswer = z.object({
  subject: z.string().min(1).max(MAX_SUBJECT_CHARS),
  body: z.string().min(1).max(MAX_BODY_CHARS),
});

const DRAFT_TASK = [
  '# Task',
  'You write one outreach email from the brand to the owner of another website, asking for a link or a mention where it genuinely helps their readers.',
  'Write plainly and briefly (under 150 words), as one person to another: no flattery, no pressure, no invented facts or claims about their site.',
  'Do not add a signature block, an unsubscribe line or placeholders in brackets: the sender name and an opt-out line are added when it is sent.',
  'Answer with the subject and the body text only.',
].join('\n');

function prospectFacts(prospect: ProspectRow): string {
  return [
    `Their site: ${prospect.domain}`,
    prospect.page_url ? `Their page: ${prospect.page_url}${prospect.title ? ` ("${prospect.title}")` : ''}` : '',
    `Why they are a prospect: ${prospect.reason}`,
    prospect.target_url ? `Our page to suggest: ${prospect.target_url}` : '',
    prospect.contact_name ? `Their name: ${prospect.contact_name}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function threadText(messages: readonly MessageRow[]): string {
  const shown = messages.filter((m) => m.state !== 'draft' && m.state !== 'cancelled').slice(-THREAD_IN_PROMPT);
  if (shown.length === 0) return 'There is no earlier email with them: write the first one.';
  return [
    'The thread so far, oldest first:',
    ...shown.map((m) => `--- ${m.direction === 'out' ? 'We wrote' : 'They wrote'} (${new Date(Number(m.sent_at ?? m.created_at)).toISOString()}), subject "${m.subject}":\n${m.body_text.slice(0, BODY_IN_PROMPT)}`),
  ].join('\n');
}

function replySubject(subject: string): string {
  return /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
}

/**
 * Drafts the first email to a prospect, or the answer to their last message, with the writer model; stores it as a
 * draft of the thread and sends nothing. Runs outside any transaction: the model call may take a while.
 */
export async function draftOutreachEmail(db: Kysely<Database>, clock: Clock, writer: Writer, workspaceId: string, prospectId: string, instructions: string | undefined) {
  const prospect = await findProspect(db, workspaceId, prospectId);
  const messages = await thread(db, workspaceId, prospectId);
  const mailbox = await findMailbox(db, workspaceId);
  const lastInbound = [...messages].reverse().find((m) => m.direction === 'in');
  const sends = messages.filter((m) => m.direction === 'out' && (m.state === 'sent' || m.state === 'sending' || m.state === 'queued'));
  const lastSendAt = Math.max(0, ...sends.map((m) => Number(m.sent_at ?? m.queued_for ?? m.updated_at)));
  // A reply answers a message of theirs we have not answered yet; once answered, the next email is a follow-up in the
  // same conversation (threaded the same), which the quiet period holds like any other.
  const answering = lastInbound !== undefined && Number(lastInbound.created_at) > lastSendAt;
  const task = answering
    ? 'Write our answer to their last message.'
    : sends.length > 0
      ? 'Write a short follow-up to our last email: they have not written since.'
      : 'Write the first email to them.';
  const answer = await writer.structured(
    {
      system: `${await brandMemoryPrompt(db, workspaceId)}\n\n${DRAFT_TASK}`,
      user: [prospectFacts(prospect), '', threadText(messages), '', task, instructions ? `What the user asks for: ${instructions}` : ''].filter((line) => line !== '').join('\n'),
      schemaName: 'outreach_email',
      schema: draftAnswer,
    },
    { workspaceId, purpose: 'outreach_email' },
  );
  const now = clock.now();
  const row = {
    id: newId('msg'),
    workspace_id: workspaceId,
    prospect_id: prospectId,
    direction: 'out' as const,
    state: 'draft' as const,
    to_address: lastInbound?.from_address ?? prospect.contact_email ?? '',
    from_address: mailbox?.fromAddress ?? '',
    subject: lastInbound === undefined ? answer.subject : replySubject(lastInbound.subject),
    body_text: answer.body,
    message_id: null,
    in_reply_to: lastInbound?.message_id ?? null,
    references: lastInbound === undefined ? null : [lastInbound.references, lastInbound.message_id].filter(Boolean).join(' ') || null,
    queued_for: null,
    sent_at: null,
    error: null,
    job_id: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('outreach_messages').values(row).execute();
  return {
    messageId: row.id,
    prospectId,
    state: 'draft' as const,
    to: row.to_address === '' ? null : row.to_address,
    from: mailbox?.fromAddress ?? null,
    subject: row.subject,
    body: row.body_text,
    inReplyTo: row.in_reply_to,
    isReply: answering,
    thread: messages.filter((m) => m.state !== 'draft').map(threadEntry),
  };
}

export async function findMessage(db: Kysely<Database>, workspaceId: string, messageId: string): Promise<MessageRow> {
  const row = await db.selectFrom('outreach_messages').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', messageId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('message', messageId);
  return row;
}

/** A whole domain is suppressed by the entry `*@domain`. */
export function domainEntry(address: string): string {
  return `*@${normaliseAddress(address).split('@').pop() ?? ''}`;
}

/** The reason the address may not be written to (its own entry first, else its domain's), or undefined. */
export async function isSuppressed(db: Kysely<Database>, workspaceId: string, address: string): Promise<string | undefined> {
  const rows = await db
    .selectFrom('outreach_suppressions')
    .select(['email', 'reason'])
    .where('workspace_id', '=', workspaceId)
    .where('email', 'in', [normaliseAddress(address), domainEntry(address)])
    .execute();
  const own = rows.find((row) => !row.email.startsWith('*@'));
  if (own !== undefined) return own.reason;
  return rows[0] === undefined ? undefined : `${rows[0].reason}, all of ${rows[0].email}`;
}

export async function suppress(db: Kysely<Database>, clock: Clock, workspaceId: string, address: string, reason: 'bounce' | 'opt_out' | 'asked' | 'manual'): Promise<void> {
  await db
    .insertInto('outreach_suppressions')
    .values({ workspace_id: workspaceId, email: normaliseAddress(address), reason, created_at: clock.now() })
    .onConflict((oc) => oc.columns(['workspace_id', 'email']).doNothing())
    .execute();
}

function utcDayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/**
 * Sends counted against the cap on the UTC day that starts at `dayStart`: queued for it, or sent on it, from this
 * mailbox whichever workspace sent them. The provider's limit is per mailbox, so two workspaces sharing one share its
 * cap: a send counts when it went from the same address, or from a workspace whose mailbox is the same SMTP account.
 */
async function sendsOnDay(db: Kysely<Database>, mailbox: Mailbox, dayStart: number, excluding: string): Promise<number> {
  const row = await db
    .selectFrom('outreach_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) =>
      eb.or([
        eb('from_address', '=', mailbox.fromAddress),
        eb(
          'workspace_id',
          'in',
          eb
            .selectFrom('outreach_mailboxes')
            .select('workspace_id')
            .where('smtp_host', '=', mailbox.row.smtp_host)
            .where((inner) => inner(inner.fn('lower', ['smtp_user']), '=', mailbox.row.smtp_user.toLowerCase())),
        ),
      ]),
    )
    .where('direction', '=', 'out')
    .where('id', '!=', excluding)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', 'in', ['queued', 'sending']), eb('queued_for', '>=', dayStart), eb('queued_for', '<', dayStart + DAY_MS)]),
        eb.and([eb('state', '=', 'sent'), eb('sent_at', '>=', dayStart), eb('sent_at', '<', dayStart + DAY_MS)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** When a send would go: now when today's cap has room (by sends other than this one), else the start of the first UTC day that has room. */
export async function sendSlot(db: Kysely<Database>, mailbox: Mailbox, now: number, messageId: string): Promise<number> {
  for (let day = utcDayStart(now); ; day += DAY_MS) {
    if ((await sendsOnDay(db, mailbox, day, messageId)) < mailbox.dailyCap) return Math.max(now, day);
  }
}

export interface SendEdits {
  subject?: string | undefined;
  body?: string | undefined;
}

interface PreparedSend {
  draft: MessageRow;
  mailbox: Mailbox;
  to: string;
  subject: string;
  /** The body as it is sent: the opt-out line appended. */
  text: string;
  sendAt: number;
}

/** Every refusal of queue_outreach_send, checked the same for the dry run and the confirmed call. */
async function prepareSend(db: Kysely<Database>, clock: Clock, workspaceId: string, messageId: string, edits: SendEdits): Promise<PreparedSend> {
  const draft = await findMessage(db, workspaceId, messageId);
  if (draft.direction !== 'out' || draft.state !== 'draft') {
    throw BadInputError.field('messageId', `message ${messageId} is ${draft.direction === 'in' ? 'a received message' : draft.state}; only a draft can be queued (draft one with draft_outreach_reply)`);
  }
  const prospect = await findProspect(db, workspaceId, draft.prospect_id);
  const stage = stageRefusal(prospect);
  if (stage !== undefined) throw BadInputError.field('messageId', stage);
  const mailbox = await findMailbox(db, workspaceId);
  if (mailbox === undefined) throw noMailbox(workspaceId);
  const isReply = draft.in_reply_to !== null;
  const to = normaliseAddress(isReply ? draft.to_address : (prospect.contact_email ?? draft.to_address));
  if (to === '') throw BadInputError.field('messageId', `prospect ${prospect.id} has no contact email: find one with find_outreach_contact`);
  const suppressed = await isSuppressed(db, workspaceId, to);
  if (suppressed !== undefined) throw BadInputError.field('messageId', `${to} is on the suppression list (${suppressed}): no email goes to that address`);
  const now = clock.now();
  const quiet = await quietPeriodRefusal(db, mailbox, draft, to, now, true);
  if (quiet !== undefined) throw BadInputError.field('messageId', quiet);
  const subject = edits.subject ?? draft.subject;
  const body = edits.body ?? draft.body_text;
  return { draft, mailbox, to, subject, text: withOptOut(body), sendAt: await sendSlot(db, mailbox, now, draft.id) };
}

function sendFacts(prepared: PreparedSend) {
  return {
    messageId: prepared.draft.id,
    prospectId: prepared.draft.prospect_id,
    to: prepared.to,
    from: `${prepared.mailbox.fromName} <${prepared.mailbox.fromAddress}>`,
    subject: prepared.subject,
    text: prepared.text,
    inReplyTo: prepared.draft.in_reply_to,
    sendAt: new Date(prepared.sendAt).toISOString(),
  };
}

export async function describeSend(db: Kysely<Database>, clock: Clock, workspaceId: string, messageId: string, edits: SendEdits) {
  const prepared = await prepareSend(db, clock, workspaceId, messageId, edits);
  const now = clock.now();
  const when = prepared.sendAt <= now ? 'now' : `at ${new Date(prepared.sendAt).toISOString()} (today's cap of ${prepared.mailbox.dailyCap} sends is used up)`;
  return {
    note: `Would send this email from ${prepared.mailbox.fromAddress} to ${prepared.to} ${when}. Repeat with confirm: true to queue it; the subject and body sent here are then stored on the draft.`,
    details: sendFacts(prepared),
  };
}

/** Records the send (queued) and its job in the caller's transaction: the job exists exactly when the queued send does. */
export async function queueSend(db: Kysely<Database>, clock: Clock, workspaceId: string, messageId: string, edits: SendEdits) {
  await takeNamedLock(db, SEND_CAP_LOCK, clock.now());
  const prepared = await prepareSend(db, clock, workspaceId, messageId, edits);
  const jobId = await enqueueJob(db, clock, { workspaceId, kind: 'outreach_send', subjectId: messageId, runAt: prepared.sendAt, maxAttempts: SEND_ATTEMPTS });
  const queued = await db
    .updateTable('outreach_messages')
    .set({
      state: 'queued',
      to_address: prepared.to,
      from_address: prepared.mailbox.fromAddress,
      subject: prepared.subject,
      body_text: prepared.text,
      queued_for: prepared.sendAt,
      job_id: jobId,
      updated_at: clock.now(),
    })
    .where('id', '=', messageId)
    .where('state', '=', 'draft')
    .executeTakeFirst();
  if (queued.numUpdatedRows !== 1n) throw BadInputError.field('messageId', `message ${messageId} was queued meanwhile`);
  return { ...sendFacts(prepared), state: 'queued' as const, jobId };
}
