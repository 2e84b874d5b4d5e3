import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { NotificationMailRefused } from '../notifications/mailer.js';
import { unsubscribeToken, unsubscribeUrl } from '../notifications/recipients.js';
import { postToEndpoint } from '../outbound/postToEndpoint.js';
import type { Services } from '../outsideServices.js';
import { deliveryHeaders } from '../publishing/signing.js';
import { alertMail, discordPayload, slackPayload, teamsPayload, type AlertMessage } from './alertFormats.js';
import type { AlertChannelRow } from './channels.js';

/** How one message to one recipient went. `retryable`: worth sending the same batch again (429, 5xx, no answer, a busy mail server). */
export type SendOutcome = { ok: true; statusCode: number | null } | { ok: false; retryable: boolean; retryAfterMs: number; statusCode: number | null; error: string };

export interface SendContext {
  db: Kysely<Database>;
  clock: Clock;
  services: Pick<Services, 'outbound' | 'credentials' | 'timing' | 'notificationMail' | 'publicUrl'>;
  workspaceId: string;
}

/** One POST of JSON to an address a customer chose, through the outbound guard, read as an outcome. */
async function postJson(ctx: SendContext, url: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
  const { services, clock } = ctx;
  const timeoutMs = services.timing.webhookTimeoutMs;
  const attempt = await postToEndpoint(services.outbound, url, { body, headers: { 'content-type': 'application/json', ...headers }, timeoutMs, now: clock.now() });
  if (!attempt.answered) {
    const error = attempt.timedOut ? `the endpoint did not answer within ${timeoutMs / 1000} seconds` : attempt.error;
    return { ok: false, retryable: !attempt.refused, retryAfterMs: 0, statusCode: null, error };
  }
  const { status } = attempt.response;
  if (attempt.accepted) return { ok: true, statusCode: status };
  const said = attempt.response.body.toString('utf8').slice(0, 200).trim();
  return { ok: false, retryable: attempt.retryable, retryAfterMs: attempt.retryAfterMs, statusCode: status, error: `the endpoint answered ${status}${said === '' ? '' : `: ${said}`}` };
}

/**
 * A webhook channel: each change is its own signed event to the destination, exactly as an article delivery is signed
 * (event = the change kind). The event's id is the send's id and the change's, the same on every attempt, so a
 * receiver that got part of a batch before a failure drops the repeats.
 */
async function sendEvents(ctx: SendContext, channel: AlertChannelRow, sendId: string, message: AlertMessage): Promise<SendOutcome> {
  const destination = await ctx.db
    .selectFrom('destinations')
    .select(['endpoint_url', 'signing_secret', 'kind'])
    .where('id', '=', channel.destination_id ?? '')
    .where('workspace_id', '=', ctx.workspaceId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (destination === undefined) return { ok: false, retryable: false, retryAfterMs: 0, statusCode: null, error: 'the webhook destination was removed' };
  const secret = ctx.services.credentials.open(destination.signing_secret);
  let last: SendOutcome = { ok: true, statusCode: null };
  for (const change of message.changes) {
    const now = ctx.clock.now();
    const body = JSON.stringify({ event: change.kind, timestamp: now, change });
    const headers = deliveryHeaders({ deliveryId: `${sendId}_${change.id}`, event: change.kind, body, secret, now });
    last = await postJson(ctx, destination.endpoint_url, body, headers);
    if (!last.ok) return last;
  }
  return last;
}

/** Sends one message to one channel in its own format. */
export async function sendToChannel(ctx: SendContext, channel: AlertChannelRow, sendId: string, message: AlertMessage): Promise<SendOutcome> {
  if (channel.kind === 'webhook') return sendEvents(ctx, channel, sendId, message);
  const url = ctx.services.credentials.open(channel.target_url ?? '');
  const payload = channel.kind === 'slack' ? slackPayload(message) : channel.kind === 'discord' ? discordPayload(message, ctx.clock.now()) : teamsPayload(message);
  return postJson(ctx, url, JSON.stringify(payload), {});
}

/** Sends one alert mail to a person through the operator's SMTP server, with the person's one-click unsubscribe link. */
export async function sendToPerson(ctx: SendContext, person: { userId: string; email: string }, sendId: string, message: AlertMessage): Promise<SendOutcome> {
  const mailer = ctx.services.notificationMail;
  if (mailer === undefined) return { ok: false, retryable: false, retryAfterMs: 0, statusCode: null, error: 'no mail server is configured (SMTP_URL or SMTP_HOST)' };
  const token = await unsubscribeToken(ctx.db, ctx.clock, ctx.workspaceId, person.userId);
  const unsubscribe = unsubscribeUrl(ctx.services.publicUrl, token, 'alerts');
  const mail = alertMail(message, unsubscribe);
  try {
    // The same id on every attempt: a server that took the message before the answer was lost sees the same message.
    await mailer.send({ to: person.email, ...mail, messageId: `<${sendId}@${new URL(ctx.services.publicUrl).hostname}>`, unsubscribeUrl: unsubscribe });
    return { ok: true, statusCode: null };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, retryable: !(error instanceof NotificationMailRefused), retryAfterMs: 0, statusCode: null, error: text };
  }
}
