import type { Kysely, Selectable } from 'kysely';
import type { Database, DestinationsTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import { sha256Hex } from '../secrets.js';
import type { Services } from '../outsideServices.js';
import { toIso } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { ProviderError } from '../integrations/kit/providerError.js';
import { DestinationError } from './cms/destination.js';
import { CMS_KINDS, isCmsKind, type CmsKindName, type DestinationKind } from './cms/kinds.js';
import { cmsDeps } from './cms/deps.js';
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

/** The kind of a stored destination; a kind this release does not know (a newer release wrote it) is refused by name. */
export function kindOf(row: Pick<DestinationRow, 'kind'>): DestinationKind {
  if (row.kind === 'webhook' || isCmsKind(row.kind)) return row.kind;
  throw new Error(`destination kind ${row.kind} is not known to this release`);
}

/** The kind's settings as callers see them, each secret as its last characters; null for a webhook. */
function maskedSettings(row: DestinationRow, credentials: CredentialSealer): Record<string, string> | null {
  const kind = kindOf(row);
  if (kind === 'webhook' || row.credentials === null) return null;
  return CMS_KINDS[kind].masked(row.settings, credentials.open(row.credentials));
}

/**
 * What callers see of a destination; the signing secret is shown once, by create_destination, and never again. For a
 * CMS kind endpointUrl is the CMS's API address.
 */
export function destinationView(row: DestinationRow, credentials: CredentialSealer) {
  return {
    destinationId: row.id,
    name: row.name,
    kind: kindOf(row),
    endpointUrl: row.endpoint_url,
    siteUrl: row.site_url,
    publishAs: row.publish_as,
    active: row.active === 1,
    role: destinationRole(row),
    lastDelivery: lastDelivery(row),
    createdAt: toIso(row.created_at),
    settings: maskedSettings(row, credentials),
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

export async function listDestinations(db: Kysely<Database>, credentials: CredentialSealer, workspaceId: string) {
  const rows = await db
    .selectFrom('destinations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { destinations: rows.map((row) => destinationView(row, credentials)) };
}

export interface NewDestination {
  name: string;
  kind?: DestinationKind | undefined;
  /** A webhook's endpoint; a CMS kind is reached at its siteUrl. */
  endpointUrl?: string | undefined;
  siteUrl?: string | undefined;
  publishAs: 'publish' | 'draft';
  /** Each CMS kind's own object, named after the kind (`ghost: { adminApiKey }`). */
  [kindObject: string]: unknown;
}

/** Refuses, before anything is stored, an address no delivery could ever reach (credentials in it, a literal private address). */
function checkReachable(outbound: SafeFetcher, field: 'endpointUrl' | 'siteUrl', address: string): void {
  try {
    outbound.check(new URL(address));
  } catch (error) {
    if (error instanceof OutboundError) throw BadInputError.field(field, `cannot be delivered to: ${error.message}`);
    throw error;
  }
}

/** Only the object of the destination's own kind may be given. */
function refuseOtherKinds(input: NewDestination, kind: DestinationKind): void {
  for (const other of Object.keys(CMS_KINDS) as CmsKindName[]) {
    if (other !== kind && input[other] !== undefined) throw BadInputError.field(other, `only for kind ${other}; this destination's kind is ${kind}`);
  }
}

interface StoredTarget {
  kind: DestinationKind;
  endpointUrl: string;
  siteUrl: string | null;
  settings: string;
  /** Sealed; null for a webhook. */
  credentials: string | null;
}

/**
 * A CMS destination's input checked, then proven against the CMS itself (check()): the address, the credentials, the
 * permissions, the version. A failure is a 400 naming the field it concerns, and nothing is stored.
 */
type DestinationServices = Pick<Services, 'outbound' | 'credentials' | 'timing' | 'siteBuilders'>;

async function cmsTarget(db: Kysely<Database>, clock: Clock, services: DestinationServices, workspaceId: string, kind: CmsKindName, input: NewDestination): Promise<StoredTarget> {
  const declared = CMS_KINDS[kind];
  if (input.endpointUrl !== undefined) throw BadInputError.field('endpointUrl', `only for a webhook destination; a ${kind} destination is reached at its siteUrl`);
  if (input.siteUrl === undefined) throw BadInputError.field('siteUrl', `is required for a ${kind} destination: the ${declared.label} site's address, e.g. https://blog.example.com`);
  if (input[kind] === undefined) throw BadInputError.field(kind, `is required for kind ${kind}`);
  checkReachable(services.outbound, 'siteUrl', input.siteUrl);
  const { settings, credentials } = declared.split(input[kind]);
  const destination = declared.open(input.siteUrl, settings, credentials, cmsDeps(db, clock, services, workspaceId));
  let checked: Awaited<ReturnType<typeof destination.check>>;
  try {
    checked = await destination.check();
  } catch (error) {
    if (error instanceof DestinationError) throw BadInputError.field(error.field ?? 'siteUrl', error.message);
    if (error instanceof ProviderError) throw BadInputError.field('siteUrl', error.message);
    throw error;
  }
  const learned = checked.settings === undefined ? settings : JSON.stringify(checked.settings);
  return { kind, endpointUrl: declared.endpointOf(input.siteUrl, learned), siteUrl: input.siteUrl, settings: learned, credentials: services.credentials.seal(credentials) };
}

async function targetOf(db: Kysely<Database>, clock: Clock, services: DestinationServices, workspaceId: string, input: NewDestination): Promise<StoredTarget> {
  const kind = input.kind ?? 'webhook';
  refuseOtherKinds(input, kind);
  if (kind !== 'webhook') return cmsTarget(db, clock, services, workspaceId, kind, input);
  if (input.endpointUrl === undefined) throw BadInputError.field('endpointUrl', 'is required for a webhook destination');
  checkReachable(services.outbound, 'endpointUrl', input.endpointUrl);
  return { kind, endpointUrl: input.endpointUrl, siteUrl: input.siteUrl ?? null, settings: '{}', credentials: null };
}

/**
 * The signing secret is stored sealed (SECRETS_KEY) and by its hash, which crawl reports are matched against; every
 * kind has one (a CMS plugin signs its crawl reports with it). A CMS kind is checked against the CMS first, outside
 * any transaction (it may take the delivery timeout), then stored in one.
 */
export async function createDestination(
  db: Kysely<Database>,
  clock: Clock,
  services: DestinationServices,
  workspaceId: string,
  input: NewDestination,
) {
  const target = await targetOf(db, clock, services, workspaceId, input);
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const existing = await trx
      .selectFrom('destinations')
      .select(['id', 'active'])
      .where('workspace_id', '=', workspaceId)
      .where('removed_at', 'is', null)
      .execute();
    if (existing.length >= MAX_DESTINATIONS) {
      throw new BadInputError(`a workspace has at most ${MAX_DESTINATIONS} destinations; remove one with remove_destination first`);
    }
    const siteUrl = target.siteUrl;
    // The first destination that can serve the site does so, so that publishing works without a separate activation.
    const active = siteUrl !== null && !existing.some((d) => d.active === 1);
    const secret = newSigningSecret();
    const id = newId('dst');
    await trx
      .insertInto('destinations')
      .values({
        id,
        workspace_id: workspaceId,
        name: input.name,
        kind: target.kind,
        endpoint_url: target.endpointUrl,
        site_url: siteUrl,
        settings: target.settings,
        credentials: target.credentials,
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
    const row = await findDestination(trx, workspaceId, id);
    return { destinationId: id, signingSecret: secret, destination: destinationView(row, services.credentials) };
  });
}

export async function activateDestination(db: Kysely<Database>, credentials: CredentialSealer, workspaceId: string, destinationId: string) {
  const row = await findDestination(db, workspaceId, destinationId);
  if (row.site_url === null) {
    throw BadInputError.field('destinationId', 'names a feed (no siteUrl); only a destination with a site address can serve the site');
  }
  await db.updateTable('destinations').set({ active: 0 }).where('workspace_id', '=', workspaceId).where('id', '!=', destinationId).where('active', '=', 1).execute();
  await db.updateTable('destinations').set({ active: 1 }).where('id', '=', destinationId).execute();
  return { destination: destinationView(await findDestination(db, workspaceId, destinationId), credentials) };
}

/** Soft removal: the row stays for the deliveries that name it, but it never receives anything again. */
export async function removeDestination(db: Kysely<Database>, clock: Clock, workspaceId: string, destinationId: string) {
  const row = await findDestination(db, workspaceId, destinationId);
  await db.updateTable('destinations').set({ removed_at: clock.now(), active: 0 }).where('id', '=', destinationId).execute();
  const cancelled = await cancelPendingDeliveries(db, clock, { destinationId: row.id }, 'the destination was removed');
  return { destinationId: row.id, removed: true as const, wasActive: row.active === 1, cancelledDeliveries: cancelled };
}
