import type { Kysely, Selectable } from 'kysely';
import type { Database, DestinationsTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import { sha256Hex } from '../secrets.js';
import type { Services } from '../outsideServices.js';
import { toIso } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { cancelPendingDeliveries } from './deliveries.js';
import { newSigningSecret } from './signing.js';

export type DestinationRow = Selectable<DestinationsTable>;

/** Every destination of a workspace receives each published article (feeds) or may (the site), so their number is bounded. */
export const MAX_DESTINATIONS = 10;

/** With a site address a destination can serve the site (one at a time: the active one); without one it is a feed. */
export function destinationRole(row: Pick<DestinationRow, 'site_url'>): 'site' | 'feed' {
  return row.site_url === null ? 'feed' : 'site';
}

function lastDelivery(row: DestinationRow) {
  if (row.last_delivery_at === null) return null;
  return {
    at: toIso(row.last_delivery_at),
    outcome: row.last_outcome,
    statusCode: row.last_status_code,
    url: row.last_url,
    statusMessage: row.last_message,
    note: row.last_note,
  };
}

/** What callers see of a destination; the signing secret is shown once, by create_destination, and never again. */
export function destinationView(row: DestinationRow) {
  return {
    destinationId: row.id,
    name: row.name,
    endpointUrl: row.endpoint_url,
    siteUrl: row.site_url,
    publishAs: row.publish_as,
    active: row.active === 1,
    role: destinationRole(row),
    lastDelivery: lastDelivery(row),
    createdAt: toIso(row.created_at),
  };
}

/** A destination of the workspace that was not removed; removed, foreign and unknown ones are all 404. */
export async function findDestination(db: Kysely<Database>, workspaceId: string, destinationId: string): Promise<DestinationRow> {
  const row = await db
    .selectFrom('destinations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', destinationId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('destination', destinationId);
  return row;
}

export async function listDestinations(db: Kysely<Database>, workspaceId: string) {
  const rows = await db
    .selectFrom('destinations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { destinations: rows.map(destinationView) };
}

export interface NewDestination {
  name: string;
  endpointUrl: string;
  siteUrl?: string | undefined;
  publishAs: 'publish' | 'draft';
}

/** Refuses, before anything is stored, an endpoint no delivery could ever reach (credentials in it, a literal private address). */
function checkEndpoint(outbound: SafeFetcher, endpointUrl: string): void {
  try {
    outbound.check(new URL(endpointUrl));
  } catch (error) {
    if (error instanceof OutboundError) throw BadInputError.field('endpointUrl', `cannot be delivered to: ${error.message}`);
    throw error;
  }
}

/** The signing secret is stored sealed (SECRETS_KEY) and by its hash, which crawl reports are matched against. */
export async function createDestination(
  db: Kysely<Database>,
  clock: Clock,
  services: Pick<Services, 'outbound' | 'credentials'>,
  workspaceId: string,
  input: NewDestination,
) {
  checkEndpoint(services.outbound, input.endpointUrl);
  await lockWorkspace(db, workspaceId);
  const existing = await db
    .selectFrom('destinations')
    .select(['id', 'active'])
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .execute();
  if (existing.length >= MAX_DESTINATIONS) {
    throw new BadInputError(`a workspace has at most ${MAX_DESTINATIONS} destinations; remove one with remove_destination first`);
  }
  const siteUrl = input.siteUrl ?? null;
  // The first destination that can serve the site does so, so that publishing works without a separate activation.
  const active = siteUrl !== null && !existing.some((d) => d.active === 1);
  const secret = newSigningSecret();
  const id = newId('dst');
  await db
    .insertInto('destinations')
    .values({
      id,
      workspace_id: workspaceId,
      name: input.name,
      endpoint_url: input.endpointUrl,
      site_url: siteUrl,
      publish_as: input.publishAs,
      signing_secret: services.credentials.seal(secret),
      secret_hash: sha256Hex(secret),
      active: active ? 1 : 0,
      last_delivery_at: null,
      last_outcome: null,
      last_status_code: null,
      last_url: null,
      last_message: null,
      last_note: null,
      created_at: clock.now(),
      removed_at: null,
    })
    .execute();
  const row = await findDestination(db, workspaceId, id);
  return { destinationId: id, signingSecret: secret, destination: destinationView(row) };
}

export async function activateDestination(db: Kysely<Database>, workspaceId: string, destinationId: string) {
  const row = await findDestination(db, workspaceId, destinationId);
  if (row.site_url === null) {
    throw BadInputError.field('destinationId', 'names a feed (no siteUrl); only a destination with a site address can serve the site');
  }
  await db.updateTable('destinations').set({ active: 0 }).where('workspace_id', '=', workspaceId).where('id', '!=', destinationId).where('active', '=', 1).execute();
  await db.updateTable('destinations').set({ active: 1 }).where('id', '=', destinationId).execute();
  return { destination: destinationView(await findDestination(db, workspaceId, destinationId)) };
}

/** Soft removal: the row stays for the deliveries that name it, but it never receives anything again. */
export async function removeDestination(db: Kysely<Database>, clock: Clock, workspaceId: string, destinationId: string) {
  const row = await findDestination(db, workspaceId, destinationId);
  await db.updateTable('destinations').set({ removed_at: clock.now(), active: 0 }).where('id', '=', destinationId).execute();
  const cancelled = await cancelPendingDeliveries(db, clock, { destinationId: row.id }, 'the destination was removed');
  return { destinationId: row.id, removed: true as const, wasActive: row.active === 1, cancelledDeliveries: cancelled };
}
