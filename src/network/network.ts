import type { Kysely, Selectable } from 'kysely';
import { takeNamedLock } from '../../db/locks.js';
import type { Database, LinkAttribute, NetworkPlacementsTable, PlacementState } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { domainOf } from '../shared/urls.js';

export type PlacementRow = Selectable<NetworkPlacementsTable>;

export const LINK_ATTRIBUTES = ['sponsored', 'nofollow', 'dofollow'] as const satisfies readonly LinkAttribute[];
export const PLACEMENT_STATES = ['proposed', 'live', 'declined', 'retired'] as const satisfies readonly PlacementState[];
/** A network link's verification state, from its backlinks row: placed (not checked yet), verified, or lost. */
export const LINK_STATUSES = ['placed', 'verified', 'lost'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
/** States in which a placement counts as an existing link for the reciprocity, cycle and per-article rules. */
export const ACTIVE_STATES = ['proposed', 'live'] as const satisfies readonly PlacementState[];
/** Credits granted on a workspace's first join, once. */
export const STARTING_CREDITS = 3;

/** The lock every proposal and every go-live takes, so that "check the rules, then create" happens once across instances. */
export const NETWORK_LOCK = 'link-network';

/** Takes the network lock in the caller's transaction (see db/locks.ts: the holder's changes are seen by the next). */
export function takeNetworkLock(trx: Kysely<Database>, now: number): Promise<void> {
  return takeNamedLock(trx, NETWORK_LOCK, now);
}

/** A placement the workspace is a side of (host or target); anything else, another workspace's included, is 404. */
export async function findPlacement(db: Kysely<Database>, workspaceId: string, placementId: string): Promise<PlacementRow> {
  const row = await db
    .selectFrom('network_placements')
    .selectAll()
    .where('id', '=', placementId)
    .where((eb) => eb.or([eb('host_workspace_id', '=', workspaceId), eb('target_workspace_id', '=', workspaceId)]))
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('placement', placementId);
  return row;
}

export async function membershipOf(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom('network_members').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function isMember(db: Kysely<Database>, workspaceId: string): Promise<boolean> {
  return (await membershipOf(db, workspaceId))?.member === 1;
}

export async function creditBalance(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('network_credits')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('balance'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

export async function bookCredit(db: Kysely<Database>, entry: { workspaceId: string; amount: number; reason: 'joined' | 'hosted' | 'received'; placementId: string | null; at: number }): Promise<void> {
  await db
    .insertInto('network_credits')
    .values({ id: newId('ncr'), workspace_id: entry.workspaceId, amount: entry.amount, reason: entry.reason, placement_id: entry.placementId, created_at: entry.at })
    .execute();
}

/** UTC midnight of the first day of the month holding `time`: the monthly cap counts from there. */
export function monthStart(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** `acme.example/pricing`: how a page is named in approval summaries. */
export function shortUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
  return `${domainOf(url) ?? parsed.hostname}${path}`;
}

/** The `rel` a link carries: the host's choice, except that dofollow needs both owners to have chosen it. */
export function linkRel(hostChoice: LinkAttribute, targetChoice: LinkAttribute): LinkAttribute {
  return hostChoice === 'dofollow' ? targetChoice : hostChoice;
}

/** BCP-47 primary language: `en-GB` and `en` are the same language for matching. */
export function primaryLanguage(tag: string): string {
  return tag.toLowerCase().split(/[-_]/)[0] ?? '';
}
