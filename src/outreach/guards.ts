import type { Kysely } from 'kysely';
import type { Database, OutreachMessageState, OutreachStage } from '../../db/schema.js';
import { DAY_MS } from '../shared/time.js';
import type { Mailbox } from './mailbox.js';
import type { ProspectRow } from './stages.js';

/**
 * The stages outreach email may go to. `rejected` said no (or was ruled out) and `link_placed` is done: writing to
 * either again is exactly the unwanted email the guardrails are there to stop.
 */
export const WRITABLE_STAGES = ['identified', 'contacted', 'replied'] as const satisfies readonly OutreachStage[];

/** Why no email may go to this prospect now, or undefined when it may. */
export function stageRefusal(prospect: ProspectRow): string | undefined {
  if ((WRITABLE_STAGES as readonly OutreachStage[]).includes(prospect.stage)) return undefined;
  return `prospect ${prospect.id} is ${prospect.stage}; outreach email goes only to prospects that are ${WRITABLE_STAGES.join(', ')}`;
}

/** A send that counts for the quiet period, and the time it counts from. */
interface CountedSend {
  state: OutreachMessageState;
  at: number;
}

/**
 * The latest send to this address other than `excluding`: sent (from when it went), being sent, and with `queued`
 * also queued ones (from when they are due). The queue-time check counts queued sends so that two drafts cannot be
 * queued to one person; the send job does not, since the other queued send meets the same check when it runs.
 */
async function lastSendTo(db: Kysely<Database>, workspaceId: string, address: string, excluding: string, queued: boolean): Promise<CountedSend | undefined> {
  const rows = await db
    .selectFrom('outreach_messages')
    .select(['state', 'sent_at', 'queued_for', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('direction', '=', 'out')
    .where('id', '!=', excluding)
    .where('to_address', '=', address)
    .where('state', 'in', queued ? ['sent', 'sending', 'queued'] : ['sent', 'sending'])
    .execute();
  // A send still to go holds the person whenever it was due; among sent ones, the latest counts.
  let last: CountedSend | undefined;
  for (const row of rows) {
    const pending = row.state !== 'sent';
    const at = Number(pending ? (row.queued_for ?? row.updated_at) : row.sent_at);
    const lastPending = last !== undefined && last.state !== 'sent';
    if (last === undefined || (pending && !lastPending) || (pending === lastPending && at > last.at)) last = { state: row.state, at };
  }
  return last;
}

/**
 * Whether `inReplyTo` names a message this person wrote that we read after our last send to them: such a message
 * may be answered inside the quiet period, once (the answer is then our last send, newer than it). Read time, not the
 * Date header, decides: the header is the sender's clock.
 */
async function answersNewMessage(db: Kysely<Database>, workspaceId: string, inReplyTo: string | null, address: string, lastSendAt: number): Promise<boolean> {
  if (inReplyTo === null) return false;
  const inbound = await db
    .selectFrom('outreach_messages')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('direction', '=', 'in')
    .where('message_id', '=', inReplyTo)
    .where('from_address', '=', address)
    .where('created_at', '>', lastSendAt)
    .executeTakeFirst();
  return inbound !== undefined;
}

export interface GuardedSend {
  id: string;
  in_reply_to: string | null;
}

/**
 * The quiet period: no email to an address that was sent one (or has one queued) within the mailbox's quiet days,
 * unless it answers a message of theirs newer than that send. The refusal names the date the next may go.
 */
export async function quietPeriodRefusal(db: Kysely<Database>, mailbox: Mailbox, message: GuardedSend, to: string, now: number, countQueued: boolean): Promise<string | undefined> {
  if (mailbox.quietDays === 0) return undefined;
  const last = await lastSendTo(db, mailbox.workspaceId, to, message.id, countQueued);
  if (last === undefined) return undefined;
  const until = last.at + mailbox.quietDays * DAY_MS;
  if (last.state === 'sent' && until <= now) return undefined;
  if (await answersNewMessage(db, mailbox.workspaceId, message.in_reply_to, to, last.at)) return undefined;
  const when = last.state === 'sent' ? `was sent one on ${new Date(last.at).toISOString()}` : `has one ${last.state} for ${new Date(last.at).toISOString()}`;
  return (
    `${to} ${when}; the mailbox's quiet period is ${mailbox.quietDays} days, so the next email to them may go from ${new Date(until).toISOString()} ` +
    '(only an answer to a message of theirs newer than our last email may go sooner, once)'
  );
}
