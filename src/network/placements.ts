import type { Kysely } from 'kysely';
import type { Database, LinkAttribute } from '../../db/schema.js';
import { recordPlacedLink } from '../backlinks/knownLinks.js';
import type { Clock } from '../clock.js';
import type { LinkNetworkSettings } from '../config.js';
import { APPROVAL_TTL_MS, requestApproval } from '../approvals/approvals.js';
import { publishArticle, publishTargets, storeRendered } from '../publishing/publish.js';
import { BadInputError } from '../errors.js';
import { newId } from '../ids.js';
import { toIso } from '../shared/time.js';
import { domainOf } from '../shared/urls.js';
import { ACTIVE_STATES, bookCredit, findPlacement, linkRel, type PlacementRow, shortUrl, takeNetworkLock } from './network.js';
import { ruleRefusal } from './rules.js';

export const ACCEPT_OPERATION = 'accept_link_placement';

type AnchorKind = 'brand' | 'title' | 'domain';

/** A host article and a target page the matching found on the same topic. */
export interface Match {
  hostWorkspaceId: string;
  hostArticleId: string;
  hostTitle: string;
  hostUrl: string;
  targetWorkspaceId: string;
  targetKind: 'article' | 'page';
  targetSubjectId: string;
  targetUrl: string;
  targetTitle: string | null;
  similarity: number;
  language: string;
}

async function siteOf(db: Kysely<Database>, workspaceId: string) {
  const row = await db
    .selectFrom('workspaces')
    .innerJoin('brands', 'brands.workspace_id', 'workspaces.id')
    .leftJoin('network_members', 'network_members.workspace_id', 'workspaces.id')
    .select(['brands.name', 'workspaces.website_url', 'network_members.link_attribute'])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { name: row.name, websiteUrl: row.website_url, domain: domainOf(row.website_url) ?? row.website_url, linkAttribute: (row.link_attribute ?? 'sponsored') as LinkAttribute };
}

/**
 * The anchor kind least used so far for links to this target site (ties in the order brand, title, domain), so its
 * network anchors stay varied; a keyword anchor is never chosen.
 */
async function chooseAnchor(db: Kysely<Database>, match: Match, brandName: string, domain: string): Promise<{ kind: AnchorKind; text: string }> {
  const options: Array<{ kind: AnchorKind; text: string }> = [{ kind: 'brand', text: brandName }];
  if (match.targetTitle !== null && match.targetTitle.trim() !== '') options.push({ kind: 'title', text: match.targetTitle.trim() });
  options.push({ kind: 'domain', text: domain });
  const used = await db
    .selectFrom('network_placements')
    .select(['anchor_kind', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('target_workspace_id', '=', match.targetWorkspaceId)
    .where('state', '!=', 'declined')
    .groupBy('anchor_kind')
    .execute();
  const count = (kind: AnchorKind) => Number(used.find((row) => row.anchor_kind === kind)?.n ?? 0);
  return options.reduce((best, option) => (count(option.kind) < count(best.kind) ? option : best));
}

/**
 * Proposes the placement in the caller's transaction, which holds the network lock: the rules are checked, the
 * placement recorded, and an approval requested from each owner. Returns the refusal instead when a rule forbids it.
 */
export async function proposePlacement(
  db: Kysely<Database>,
  clock: Clock,
  settings: LinkNetworkSettings,
  match: Match,
): Promise<{ placementId: string } | { refused: string }> {
  const now = clock.now();
  const seen = await db
    .selectFrom('network_placements')
    .select('id')
    .where('host_article_id', '=', match.hostArticleId)
    .where('target_url', '=', match.targetUrl)
    .limit(1)
    .executeTakeFirst();
  // Declined once, a pair is not put to the owners again every day.
  if (seen !== undefined) return { refused: 'this article and page were proposed before' };
  const refusal = await ruleRefusal(db, settings, match, now);
  if (refusal !== null) return { refused: refusal };
  const [host, target] = await Promise.all([siteOf(db, match.hostWorkspaceId), siteOf(db, match.targetWorkspaceId)]);
  const anchor = await chooseAnchor(db, match, target.name, target.domain);
  const rel = linkRel(host.linkAttribute, target.linkAttribute);
  const placementId = newId('npl');
  const input = { placementId };
  const requestedBy = { apiKeyId: null, userId: null };
  const hostApproval = await requestApproval(db, clock, {
    workspaceId: match.hostWorkspaceId,
    operationId: ACCEPT_OPERATION,
    input,
    summary: `Link from your article "${match.hostTitle}" to ${shortUrl(match.targetUrl)} (rel=${rel}), anchor "${anchor.text}"?`,
    requestedBy,
  });
  const targetApproval = await requestApproval(db, clock, {
    workspaceId: match.targetWorkspaceId,
    operationId: ACCEPT_OPERATION,
    input,
    summary: `Accept a link to your page ${match.targetTitle ?? shortUrl(match.targetUrl)} from ${host.name}'s article "${match.hostTitle}" (rel=${rel})? It costs 1 credit once live.`,
    requestedBy,
  });
  await db
    .insertInto('network_placements')
    .values({
      id: placementId,
      host_workspace_id: match.hostWorkspaceId,
      host_article_id: match.hostArticleId,
      host_url: match.hostUrl,
      target_workspace_id: match.targetWorkspaceId,
      target_kind: match.targetKind,
      target_subject_id: match.targetSubjectId,
      target_url: match.targetUrl,
      target_title: match.targetTitle,
      anchor_text: anchor.text,
      anchor_kind: anchor.kind,
      rel,
      similarity: match.similarity,
      language: match.language,
      state: 'proposed',
      host_approval_id: hostApproval.approvalId,
      target_approval_id: targetApproval.approvalId,
      host_approved_at: null,
      target_approved_at: null,
      proposed_at: now,
      live_at: null,
      ended_at: null,
      end_reason: null,
    })
    .execute();
  return { placementId };
}

/**
 * Why a proposed placement is over because of an owner: one side's approval was declined, expired, or failed. Null
 * while both are pending or approved.
 */
export function decisionEnd(placement: PlacementRow, approvals: ReadonlyMap<string, { state: string; expires_at: number; error: string | null }>, now: number): string | null {
  if (placement.state !== 'proposed') return null;
  for (const [side, approvalId, approvedAt] of [
    ['host', placement.host_approval_id, placement.host_approved_at],
    ['target', placement.target_approval_id, placement.target_approved_at],
  ] as const) {
    if (approvedAt !== null || approvalId === null) continue;
    const approval = approvals.get(approvalId);
    if (approval === undefined) continue;
    if (approval.state === 'declined') return `the ${side} owner declined`;
    if (approval.state === 'expired' || (approval.state === 'pending' && approval.expires_at <= now)) return `the ${side} owner did not decide within ${APPROVAL_TTL_MS / 86_400_000} days`;
    if (approval.state === 'failed') return `the ${side} approval failed: ${approval.error ?? 'unknown reason'}`;
  }
  return null;
}

export async function approvalsOf(db: Kysely<Database>, placements: readonly PlacementRow[]) {
  const ids = placements.flatMap((p) => [p.host_approval_id, p.target_approval_id]).filter((id): id is string => id !== null);
  if (ids.length === 0) return new Map<string, { state: string; expires_at: number; error: string | null }>();
  const rows = await db.selectFrom('approvals').select(['id', 'state', 'expires_at', 'error']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Writes down the declines of proposed placements whose owners declined or let the approval lapse. */
export async function settleDecisions(db: Kysely<Database>, clock: Clock, workspaceId?: string): Promise<number> {
  let query = db.selectFrom('network_placements').selectAll().where('state', '=', 'proposed');
  if (workspaceId !== undefined) query = query.where((eb) => eb.or([eb('host_workspace_id', '=', workspaceId), eb('target_workspace_id', '=', workspaceId)]));
  const proposed = await query.execute();
  const approvals = await approvalsOf(db, proposed);
  const now = clock.now();
  let declined = 0;
  for (const placement of proposed) {
    const reason = decisionEnd(placement, approvals, now);
    if (reason === null) continue;
    const written = await db.updateTable('network_placements').set({ state: 'declined', ended_at: now, end_reason: reason }).where('id', '=', placement.id).where('state', '=', 'proposed').executeTakeFirst();
    if (written.numUpdatedRows === 0n) continue;
    await withdrawApprovals(db, placement, `the placement was declined: ${reason}`, now);
    declined++;
  }
  return declined;
}

/** What became of the host article when its placement changed. */
export type HostUpdate = { republished: true } | { republished: false; why: string };

/**
 * Why the host article cannot be republished now (no longer published, being rewritten, no destination), and whether
 * it is still published (the Content API serves its stored copy); null when it can be.
 */
async function republishBlocker(db: Kysely<Database>, placement: PlacementRow): Promise<{ why: string; published: boolean } | null> {
  const article = await db
    .selectFrom('articles')
    .select(['status', 'writing_job_id'])
    .where('id', '=', placement.host_article_id)
    .where('workspace_id', '=', placement.host_workspace_id)
    .executeTakeFirst();
  if (article === undefined) return { why: 'the host article no longer exists', published: false };
  const published = article.status === 'published';
  if (article.writing_job_id !== null) return { why: 'the host article is being rewritten', published };
  if (!published) return { why: `the host article is ${article.status}, not published`, published };
  if ((await publishTargets(db, placement.host_workspace_id)).length === 0) return { why: 'the host site has no destination to publish to', published };
  return null;
}

/**
 * Republishes a host article so that the render adds or drops its network link (`article.updated` to destinations
 * that have it), when it can be republished now; otherwise the answer says why not.
 */
export async function republishHost(db: Kysely<Database>, clock: Clock, placement: PlacementRow): Promise<HostUpdate> {
  const blocker = await republishBlocker(db, placement);
  if (blocker !== null) return { republished: false, why: blocker.why };
  await publishArticle(db, clock, placement.host_workspace_id, placement.host_article_id);
  return { republished: true };
}

/**
 * Re-renders a published host article that cannot be republished now and stores the result, so that the Content API
 * serves it as its placements now are (the render reads only live ones): without a retired link, with one gone live.
 * Destinations that received the article see the change at its next publish. An article not published is served by
 * nothing and keeps the copy of its last publish; its next publish renders it afresh.
 */
async function storeHostRendered(db: Kysely<Database>, clock: Clock, placement: PlacementRow): Promise<boolean> {
  const article = await db.selectFrom('articles').selectAll().where('id', '=', placement.host_article_id).where('workspace_id', '=', placement.host_workspace_id).executeTakeFirst();
  if (article === undefined || article.status !== 'published' || article.markdown === null) return false;
  await storeRendered(db, clock, placement.host_workspace_id, article, clock.now());
  return true;
}

export function describeAcceptance(placement: PlacementRow, workspaceId: string, hostName: string): string {
  const link = `${shortUrl(placement.host_url)} → ${shortUrl(placement.target_url)} (anchor "${placement.anchor_text}", rel=${placement.rel})`;
  return placement.host_workspace_id === workspaceId
    ? `Host the network link ${link} in your article? It goes live (the article is republished) once both owners approve, and earns 1 credit.`
    : `Accept the network link ${link} from ${hostName}? It goes live once both owners approve, and costs 1 credit.`;
}

export async function describeAccept(db: Kysely<Database>, workspaceId: string, placementId: string): Promise<string> {
  const placement = await findPlacement(db, workspaceId, placementId);
  const host = await siteOf(db, placement.host_workspace_id);
  return describeAcceptance(placement, workspaceId, host.name);
}

export type AcceptAnswer = {
  placementId: string;
  side: 'host' | 'target';
  state: PlacementRow['state'];
  hostApproved: boolean;
  targetApproved: boolean;
  liveAt: string | null;
  /** Why it did not go live (a rule refused it at the second approval, an owner declined), or why nothing changed. */
  reason: string | null;
};

function acceptAnswer(placement: PlacementRow, side: 'host' | 'target', reason: string | null): AcceptAnswer {
  return {
    placementId: placement.id,
    side,
    state: placement.state,
    hostApproved: placement.host_approved_at !== null,
    targetApproved: placement.target_approved_at !== null,
    liveAt: toIso(placement.live_at),
    reason,
  };
}

/**
 * One owner's acceptance (replayed by the approval flow in that owner's workspace). When the other side has approved
 * too, the rules are checked again; then the placement goes live: credits move, the host article is republished with
 * the link, and the target workspace gets a backlink row that verification checks.
 */
export async function acceptPlacement(db: Kysely<Database>, clock: Clock, settings: LinkNetworkSettings, workspaceId: string, placementId: string): Promise<AcceptAnswer> {
  const now = clock.now();
  await takeNetworkLock(db, now);
  const found = await findPlacement(db, workspaceId, placementId);
  const side = found.host_workspace_id === workspaceId ? 'host' : 'target';
  if (found.state !== 'proposed') return acceptAnswer(found, side, `the placement is ${found.state}; nothing to accept`);
  const ended = decisionEnd(found, await approvalsOf(db, [found]), now);
  if (ended !== null) {
    const declined = await endPlacement(db, found, 'declined', ended, now);
    return acceptAnswer(declined, side, ended);
  }
  const column = side === 'host' ? 'host_approved_at' : 'target_approved_at';
  if (found[column] === null) await db.updateTable('network_placements').set({ [column]: now }).where('id', '=', found.id).execute();
  const placement = await findPlacement(db, workspaceId, placementId);
  if (placement.host_approved_at === null || placement.target_approved_at === null) return acceptAnswer(placement, side, null);

  const refusal = await ruleRefusal(
    db,
    settings,
    { placementId: placement.id, hostWorkspaceId: placement.host_workspace_id, hostArticleId: placement.host_article_id, targetWorkspaceId: placement.target_workspace_id, targetUrl: placement.target_url },
    now,
  );
  const article = await db.selectFrom('articles').select(['status', 'url']).where('id', '=', placement.host_article_id).executeTakeFirst();
  const articleProblem = article === undefined || article.status !== 'published' || article.url === null ? 'the host article is no longer published' : null;
  if (refusal !== null || articleProblem !== null) {
    const reason = refusal ?? articleProblem!;
    return acceptAnswer(await endPlacement(db, placement, 'declined', reason, now), side, reason);
  }
  await db.updateTable('network_placements').set({ state: 'live', live_at: now, host_url: article!.url! }).where('id', '=', placement.id).execute();
  await bookCredit(db, { workspaceId: placement.host_workspace_id, amount: 1, reason: 'hosted', placementId: placement.id, at: now });
  await bookCredit(db, { workspaceId: placement.target_workspace_id, amount: -1, reason: 'received', placementId: placement.id, at: now });
  const live = await findPlacement(db, workspaceId, placementId);
  // A host that cannot be republished now (it has no destination and serves its site from the Content API, or the
  // article is being rewritten) gets its stored copy re-rendered with the link; its next publish sends it on.
  if (!(await republishHost(db, clock, live)).republished) await storeHostRendered(db, clock, live);
  await recordPlacedLink(db, clock, {
    workspaceId: live.target_workspace_id,
    linkingUrl: live.host_url,
    targetUrl: live.target_url,
    anchorText: live.anchor_text,
    dofollow: live.rel === 'dofollow',
    source: 'network',
    placementId: live.id,
  });
  return acceptAnswer(live, side, null);
}

/**
 * Ends a placement and withdraws its owners' approvals still pending, so neither owner is left a decision about a
 * placement that is over. The approval flow has no "withdrawn" state: a withdrawn approval is `expired` as of now,
 * with the reason in its error, and deciding it is refused like any expired one.
 */
async function endPlacement(db: Kysely<Database>, placement: PlacementRow, state: 'declined' | 'retired', reason: string, now: number): Promise<PlacementRow> {
  await db.updateTable('network_placements').set({ state, ended_at: now, end_reason: reason }).where('id', '=', placement.id).execute();
  await withdrawApprovals(db, placement, `the placement was ${state}: ${reason}`, now);
  return { ...placement, state, ended_at: now, end_reason: reason };
}

async function withdrawApprovals(db: Kysely<Database>, placement: PlacementRow, reason: string, now: number): Promise<void> {
  const ids = [placement.host_approval_id, placement.target_approval_id].filter((id): id is string => id !== null);
  if (ids.length === 0) return;
  // An approval already past its time has expired on its own and keeps its own expiry.
  await db
    .updateTable('approvals')
    .set({ state: 'expired', expires_at: now, error: reason })
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where('expires_at', '>', now)
    .execute();
}

/** A proposed or live placement of this workspace, else 400 naming placementId (another workspace's: 404). */
async function removable(db: Kysely<Database>, workspaceId: string, placementId: string): Promise<PlacementRow> {
  const placement = await findPlacement(db, workspaceId, placementId);
  if (!(ACTIVE_STATES as readonly string[]).includes(placement.state)) {
    throw BadInputError.field('placementId', `placement ${placementId} is ${placement.state}; only a proposed or live placement can be removed`);
  }
  return placement;
}

export async function describeRemoval(db: Kysely<Database>, workspaceId: string, placementId: string): Promise<string> {
  const placement = await removable(db, workspaceId, placementId);
  const link = `the link to ${placement.target_url} (anchor "${placement.anchor_text}") in ${placement.host_url}`;
  if (placement.state !== 'live') return `Would withdraw the proposed placement of ${link}; it is retired and never goes live, whatever the owners decide, and both owners' pending approvals are withdrawn.`;
  const blocker = await republishBlocker(db, placement);
  const how =
    blocker === null
      ? 'the host article is republished without it (article.updated)'
      : blocker.published
        ? `the host article's stored copy (Content API) is re-rendered without it (it cannot be republished now: ${blocker.why}; destinations drop the link at its next publish)`
        : `the host article is not republished (${blocker.why}); its next publish renders it without the link`;
  return `Would remove ${link}: ${how} and the placement is retired. Credits are not refunded.`;
}

export interface Retirement {
  /** True when the live link left its host article through a republish. */
  republished: boolean;
  /** True when it could not be, and the host article was re-rendered and stored without the link instead. */
  stored: boolean;
  /** Set when a live link could not be republished away: why, and what was done instead. */
  note: string | null;
}

/**
 * Retires one placement, in the caller's transaction, which holds the network lock. A live one leaves its host
 * article through a republish; when that cannot happen now, the article is re-rendered and stored without it.
 */
export async function retirePlacement(db: Kysely<Database>, clock: Clock, placement: PlacementRow, reason: string): Promise<Retirement> {
  await endPlacement(db, placement, 'retired', reason, clock.now());
  if (placement.state !== 'live') return { republished: false, stored: false, note: null };
  const update = await republishHost(db, clock, placement);
  if (update.republished) return { republished: true, stored: false, note: null };
  const stored = await storeHostRendered(db, clock, placement);
  return {
    republished: false,
    stored,
    note: stored
      ? `Not republished (${update.why}): the stored article (Content API) no longer carries the link; destinations drop it at the article's next publish.`
      : `Not republished (${update.why}); nothing serves a stored copy of it, and its next publish renders it without the link.`,
  };
}

export async function removePlacement(db: Kysely<Database>, clock: Clock, workspaceId: string, placementId: string) {
  // Under the lock, as a go-live is: a removal and an approval of the same placement happen one after the other.
  await takeNetworkLock(db, clock.now());
  const placement = await removable(db, workspaceId, placementId);
  const side = placement.host_workspace_id === workspaceId ? 'host' : 'target';
  const { republished, note } = await retirePlacement(db, clock, placement, `removed by the ${side} site`);
  return { placementId, state: 'retired' as const, retiredAt: toIso(clock.now()), republished, note };
}
