import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { approvalUrl } from '../approvals/approvals.js';
import { toIso } from '../shared/time.js';
import { domainOf } from '../shared/urls.js';
import { creditBalance, type LinkStatus, membershipOf, type PlacementRow } from './network.js';
import { approvalsOf, decisionEnd } from './placements.js';

/** Placements listed per side, newest first. */
const LISTED = 100;
const CREDIT_HISTORY = 50;

async function credits(db: Kysely<Database>, workspaceId: string) {
  const totals = await db
    .selectFrom('network_credits')
    .select(['reason', (eb) => eb.fn.sum<number | string>('amount').as('total')])
    .where('workspace_id', '=', workspaceId)
    .groupBy('reason')
    .execute();
  const total = (reason: string) => Number(totals.find((row) => row.reason === reason)?.total ?? 0);
  const history = await db
    .selectFrom('network_credits')
    .select(['amount', 'reason', 'placement_id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CREDIT_HISTORY)
    .execute();
  return {
    balance: await creditBalance(db, workspaceId),
    granted: total('joined'),
    earned: total('hosted'),
    spent: -total('received'),
    history: history.map((row) => ({ amount: row.amount, reason: row.reason, placementId: row.placement_id, at: toIso(row.created_at) })),
  };
}

async function sitesOf(db: Kysely<Database>, workspaceIds: readonly string[]) {
  if (workspaceIds.length === 0) return new Map<string, { name: string; domain: string }>();
  const rows = await db
    .selectFrom('workspaces')
    .innerJoin('brands', 'brands.workspace_id', 'workspaces.id')
    .select(['workspaces.id', 'brands.name', 'workspaces.website_url'])
    .where('workspaces.id', 'in', [...new Set(workspaceIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, { name: row.name, domain: domainOf(row.website_url) ?? row.website_url }]));
}

/** Placements per backlink lookup: four bound values each, well within either database's limit. */
const LINK_LOOKUP_CHUNK = 100;

/**
 * The verification state of each placement's link, by placement id, from the backlinks row recorded when it went live
 * (in the target's workspace). Looked up by that row's unique key (workspace, linking page, target), and only while
 * the row still names the placement.
 */
async function linkChecks(db: Kysely<Database>, placements: readonly PlacementRow[]) {
  const wentLive = placements.filter((p) => p.live_at !== null);
  const checks = new Map<string, { status: LinkStatus; lastVerifiedAt: number | null; lostAt: number | null }>();
  for (let i = 0; i < wentLive.length; i += LINK_LOOKUP_CHUNK) {
    const chunk = wentLive.slice(i, i + LINK_LOOKUP_CHUNK);
    const rows = await db
      .selectFrom('backlinks')
      .select(['placement_id', 'status', 'last_verified_at', 'lost_at'])
      .where((eb) =>
        eb.or(
          chunk.map((p) =>
            eb.and([eb('workspace_id', '=', p.target_workspace_id), eb('linking_url', '=', p.host_url), eb('target_url', '=', p.target_url), eb('placement_id', '=', p.id)]),
          ),
        ),
      )
      .execute();
    for (const row of rows) {
      // A placed link is `placed` until its first check; verification moves it to verified or lost.
      const status: LinkStatus = row.status === 'verified' || row.status === 'lost' ? row.status : 'placed';
      checks.set(row.placement_id!, { status, lastVerifiedAt: row.last_verified_at, lostAt: row.lost_at });
    }
  }
  return checks;
}

/** Credits, membership and the placements on each side, each in its state as the owners' decisions leave it. */
export async function readLinkNetwork(db: Kysely<Database>, clock: Clock, publicUrl: string, workspaceId: string) {
  const now = clock.now();
  const membership = await membershipOf(db, workspaceId);
  const side = (column: 'host_workspace_id' | 'target_workspace_id') =>
    db.selectFrom('network_placements').selectAll().where(column, '=', workspaceId).orderBy('proposed_at', 'desc').orderBy('id', 'desc').limit(LISTED).execute();
  const [given, received] = await Promise.all([side('host_workspace_id'), side('target_workspace_id')]);
  const approvals = await approvalsOf(db, [...given, ...received]);
  const checks = await linkChecks(db, [...given, ...received]);
  const sites = await sitesOf(db, [...given.map((p) => p.target_workspace_id), ...received.map((p) => p.host_workspace_id)]);
  const view = (placement: PlacementRow, mySide: 'host' | 'target') => {
    // A decline or a lapse not yet written down by the daily run shows as it is.
    const ended = decisionEnd(placement, approvals, now);
    const other = sites.get(mySide === 'host' ? placement.target_workspace_id : placement.host_workspace_id);
    const myApproval = mySide === 'host' ? placement.host_approval_id : placement.target_approval_id;
    const myApprovedAt = mySide === 'host' ? placement.host_approved_at : placement.target_approved_at;
    const pending = ended === null && placement.state === 'proposed' && myApprovedAt === null && myApproval !== null && approvals.get(myApproval)?.state === 'pending';
    return {
      placementId: placement.id,
      state: ended === null ? placement.state : ('declined' as const),
      otherSite: other?.domain ?? null,
      otherSiteName: other?.name ?? null,
      hostArticleUrl: placement.host_url,
      targetUrl: placement.target_url,
      anchorText: placement.anchor_text,
      rel: placement.rel,
      similarity: Math.round(placement.similarity * 1000) / 1000,
      language: placement.language,
      hostApproved: placement.host_approved_at !== null,
      targetApproved: placement.target_approved_at !== null,
      approvalUrl: pending ? approvalUrl(publicUrl, myApproval) : null,
      proposedAt: toIso(placement.proposed_at),
      liveAt: toIso(placement.live_at),
      endedAt: toIso(ended === null ? placement.ended_at : now),
      endReason: ended ?? placement.end_reason,
      linkStatus: checks.get(placement.id)?.status ?? null,
      lastVerifiedAt: toIso(checks.get(placement.id)?.lastVerifiedAt ?? null),
      lostAt: toIso(checks.get(placement.id)?.lostAt ?? null),
    };
  };
  return {
    credits: await credits(db, workspaceId),
    membership: {
      member: membership?.member === 1,
      joinedAt: membership?.member === 1 ? toIso(membership.joined_at) : null,
      leftAt: membership?.member === 1 ? null : toIso(membership?.left_at ?? null),
      linkAttribute: membership?.link_attribute ?? null,
      lastMatchAt: toIso(membership?.last_match_at ?? null),
      lastMatchNote: membership?.last_match_note ?? null,
    },
    given: given.map((p) => view(p, 'host')),
    received: received.map((p) => view(p, 'target')),
  };
}
