import type { Kysely, Selectable } from 'kysely';
import type { BacklinksTable, BacklinkStatus, Database } from '../../db/schema.js';
import { toIso } from '../shared/time.js';

export const BACKLINK_STATUSES = ['discovered', 'verified', 'lost', 'placed', 'identified', 'contacted', 'replied', 'link_placed', 'rejected'] as const satisfies readonly BacklinkStatus[];
export const BACKLINK_SOURCES = ['index', 'outreach', 'managed', 'network'] as const;
export const DEFAULT_BACKLINKS_PAGE = 100;
export const MAX_BACKLINKS_PAGE = 500;

/** Where the next page starts: the last row's discovery time and id, so pages neither skip nor repeat while rows arrive. */
interface Position {
  discoveredAt: number;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.discoveredAt}:${position.id}`).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service wrote. */
export function decodeCursor(cursor: string): Position | undefined {
  const match = /^(\d{1,15}):([A-Za-z0-9_]{1,100})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match === null ? undefined : { discoveredAt: Number(match[1]), id: match[2]! };
}

/** A stored row as every operation answers it (list_backlinks, add_managed_backlink). */
export function backlinkRecord(row: Selectable<BacklinksTable>) {
  return {
    backlinkId: row.id,
    linkingUrl: row.linking_url,
    linkingDomain: row.linking_domain,
    targetUrl: row.target_url,
    anchorText: row.anchor_text,
    dofollow: row.dofollow === 1,
    domainAuthority: row.domain_authority,
    authorityMetric: row.authority_metric,
    status: row.status,
    source: row.source,
    discoveredAt: toIso(row.discovered_at),
    placedAt: toIso(row.placed_at),
    lastVerifiedAt: toIso(row.last_verified_at),
    lostAt: toIso(row.lost_at),
    statusChangedAt: toIso(row.status_changed_at),
    checkError: row.check_error,
  };
}

export interface BacklinkPage {
  status?: BacklinkStatus | undefined;
  limit: number;
  cursor?: Position | undefined;
}

/**
 * A page of the workspace's backlinks, newest first (by when each was first seen), with the total for the filter. The
 * page is read on an index that starts with (workspace, [status,] discovered_at), so it reads `limit` rows whatever the
 * table's size.
 */
export async function listBacklinks(db: Kysely<Database>, workspaceId: string, page: BacklinkPage) {
  let rows = db.selectFrom('backlinks').selectAll().where('workspace_id', '=', workspaceId);
  // The total comes from the tallies the triggers keep (migration 0022): counting the rows would grow with the table.
  let count = db
    .selectFrom('backlink_tallies')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('links'), eb.lit(0)).as('total'))
    .where('workspace_id', '=', workspaceId);
  if (page.status !== undefined) {
    rows = rows.where('status', '=', page.status);
    count = count.where('status', '=', page.status);
  }
  const after = page.cursor;
  if (after !== undefined) {
    // A row-value comparison, which both databases read as one range of the index.
    rows = rows.where((eb) => eb(eb.refTuple('discovered_at', 'id'), '<', eb.tuple(after.discoveredAt, after.id)));
  }
  const [found, counted] = await Promise.all([rows.orderBy('discovered_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute(), count.executeTakeFirstOrThrow()]);
  const last = found.at(-1);
  return {
    total: Number(counted.total),
    backlinks: found.map(backlinkRecord),
    // Only a full page may have older rows after it.
    nextCursor: found.length === page.limit && last !== undefined ? encodeCursor({ discoveredAt: last.discovered_at, id: last.id }) : null,
  };
}
