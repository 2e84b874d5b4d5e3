import type { Kysely, Selectable } from 'kysely';
import type { AlertChannelKind, AlertChannelsTable, ChangeSeverity, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import { findDestination } from '../publishing/destinations.js';
import { toIso } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';

export const ALERT_CHANNEL_KINDS = ['slack', 'discord', 'teams', 'webhook'] as const satisfies readonly AlertChannelKind[];
/** Each channel is one more message per change batch to the outside world, so their number is bounded. */
export const MAX_ALERT_CHANNELS = 10;

export type AlertChannelRow = Selectable<AlertChannelsTable>;

const KIND_NAMES: Record<AlertChannelKind, string> = { slack: 'Slack', discord: 'Discord', teams: 'Microsoft Teams', webhook: 'webhook destination' };

/**
 * An incoming-webhook URL is a credential (whoever holds it can post to the channel): shown as its origin and its last
 * four characters only.
 */
export function maskedUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}/…${url.slice(-4)}`;
}

export function channelView(row: AlertChannelRow, credentials: CredentialSealer, lastSend: { created_at: number; state: string; status_code: number | null; error: string | null } | undefined) {
  return {
    channelId: row.id,
    kind: row.kind,
    name: row.name,
    target: row.target_url === null ? null : maskedUrl(credentials.open(row.target_url)),
    destinationId: row.destination_id,
    minSeverity: row.min_severity,
    createdAt: toIso(row.created_at),
    lastSend: lastSend === undefined ? null : { at: toIso(lastSend.created_at), state: lastSend.state, statusCode: lastSend.status_code, error: lastSend.error },
  };
}

export const channelRecipient = (channelId: string) => `channel:${channelId}`;

/** The workspace's live channels, oldest first. */
export function liveChannels(db: Kysely<Database>, workspaceId: string): Promise<AlertChannelRow[]> {
  return db.selectFrom('alert_channels').selectAll().where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).orderBy('created_at').orderBy('id').execute();
}

export async function findChannel(db: Kysely<Database>, workspaceId: string, channelId: string): Promise<AlertChannelRow> {
  const row = await db.selectFrom('alert_channels').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', channelId).where('removed_at', 'is', null).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('alert channel', channelId);
  return row;
}

async function lastSendOf(db: Kysely<Database>, workspaceId: string, channelId: string) {
  return db
    .selectFrom('alert_sends')
    .select(['created_at', 'state', 'status_code', 'error'])
    .where('workspace_id', '=', workspaceId)
    .where('recipient_key', '=', channelRecipient(channelId))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function listAlertChannels(db: Kysely<Database>, credentials: CredentialSealer, workspaceId: string) {
  const rows = await liveChannels(db, workspaceId);
  return { channels: await Promise.all(rows.map(async (row) => channelView(row, credentials, await lastSendOf(db, workspaceId, row.id)))) };
}

export interface NewChannel {
  kind: AlertChannelKind;
  name: string;
  url?: string | undefined;
  destinationId?: string | undefined;
  minSeverity: ChangeSeverity;
}

/** The input checked: the URL's kind of address through the outbound guard, the destination in this workspace and a webhook. */
async function checkedTarget(db: Kysely<Database>, outbound: SafeFetcher, workspaceId: string, input: NewChannel): Promise<{ url: string | null; destinationId: string | null; destinationName: string | null }> {
  if (input.kind === 'webhook') {
    if (input.url !== undefined) throw BadInputError.field('url', 'only for slack, discord and teams; a webhook channel sends to its destinationId');
    if (input.destinationId === undefined) throw BadInputError.field('destinationId', 'is required for kind webhook: a webhook destination of this workspace (list_destinations)');
    const destination = await findDestination(db, workspaceId, input.destinationId);
    if (destination.kind !== 'webhook') throw BadInputError.field('destinationId', `is a ${destination.kind} destination; change events go to webhook destinations only`);
    return { url: null, destinationId: destination.id, destinationName: destination.name };
  }
  if (input.destinationId !== undefined) throw BadInputError.field('destinationId', 'only for kind webhook');
  if (input.url === undefined) throw BadInputError.field('url', `is required for kind ${input.kind}: the channel's incoming-webhook URL`);
  try {
    outbound.check(new URL(input.url));
  } catch (error) {
    if (error instanceof OutboundError) throw BadInputError.field('url', `cannot be sent to: ${error.message}`);
    throw error;
  }
  return { url: input.url, destinationId: null, destinationName: null };
}

/** What add_alert_channel would do, after the same checks. */
export async function describeNewChannel(db: Kysely<Database>, outbound: SafeFetcher, workspaceId: string, input: NewChannel): Promise<string> {
  const target = await checkedTarget(db, outbound, workspaceId, input);
  const where = target.url === null ? `the webhook destination ${target.destinationName} as signed events, one per change` : `the ${KIND_NAMES[input.kind]} incoming webhook ${maskedUrl(target.url)}`;
  return `Would send alerts of severity ${input.minSeverity} and above to ${where}, as changes are recorded, at most the workspace's alertsPerDay messages a day. Nothing is sent now: try it with send_test_alert.`;
}

export async function addAlertChannel(db: Kysely<Database>, clock: Clock, services: { outbound: SafeFetcher; credentials: CredentialSealer }, workspaceId: string, input: NewChannel) {
  const target = await checkedTarget(db, services.outbound, workspaceId, input);
  await lockWorkspace(db, workspaceId);
  const count = await db.selectFrom('alert_channels').select((eb) => eb.fn.countAll<number | string>().as('count')).where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).executeTakeFirstOrThrow();
  if (Number(count.count) >= MAX_ALERT_CHANNELS) throw new BadInputError(`a workspace has at most ${MAX_ALERT_CHANNELS} alert channels; remove one with remove_alert_channel first`);
  const row: AlertChannelRow = {
    id: newId('ach'),
    workspace_id: workspaceId,
    kind: input.kind,
    name: input.name,
    target_url: target.url === null ? null : services.credentials.seal(target.url),
    destination_id: target.destinationId,
    min_severity: input.minSeverity,
    created_at: clock.now(),
    removed_at: null,
  };
  await db.insertInto('alert_channels').values(row).execute();
  return { channelId: row.id, channel: channelView(row, services.credentials, undefined) };
}

export async function removeAlertChannel(db: Kysely<Database>, clock: Clock, workspaceId: string, channelId: string) {
  const row = await findChannel(db, workspaceId, channelId);
  await db.updateTable('alert_channels').set({ removed_at: clock.now() }).where('id', '=', row.id).where('removed_at', 'is', null).execute();
  // A batch still waiting for another attempt is not sent to a removed channel.
  await db
    .updateTable('alert_sends')
    .set({ state: 'skipped', error: 'the channel was removed' })
    .where('workspace_id', '=', workspaceId)
    .where('recipient_key', '=', channelRecipient(row.id))
    .where('state', '=', 'pending')
    .execute();
  return { channelId: row.id, removed: true as const };
}
