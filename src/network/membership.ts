import type { Kysely } from 'kysely';
import type { Database, LinkAttribute } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { enqueueJob } from '../jobs/queue.js';
import type { DryRunNote } from '../shared/dryRun.js';
import { toIso } from '../shared/time.js';
import { ACTIVE_STATES, bookCredit, membershipOf, STARTING_CREDITS, takeNetworkLock } from './network.js';
import { retirePlacement } from './placements.js';
import { NETWORK_RULES } from './rules.js';

export interface MembershipChange {
  member: boolean;
  linkAttribute?: LinkAttribute | undefined;
}

/** Stated on every dry run of joining: what Google's spam policies say about networks like this one. */
export const NETWORK_RISK =
  "Risk: Google's spam policies treat links made for ranking as link spam, naming excessive link exchanges and automated link creation; " +
  'links given for credits are compensated links, which Google asks to carry rel="sponsored" (or nofollow). With those attributes the links pass no ranking credit: ' +
  'what they bring is relevant readers and mentions. The network refuses reciprocal links and short cycles and caps placements, but it cannot make followed links for credits safe.';

export const DOFOLLOW_RISK =
  'You chose dofollow: links you host would pass ranking credit in exchange for credits, which is what the policy calls a link scheme. ' +
  'A manual action can demote or remove the pages involved, on the host site and on the target site. A link is dofollow only when both owners chose dofollow; otherwise it carries the other choice.';

async function activePlacementsOf(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('network_placements')
    .selectAll()
    .where('state', 'in', ACTIVE_STATES)
    .where((eb) => eb.or([eb('host_workspace_id', '=', workspaceId), eb('target_workspace_id', '=', workspaceId)]))
    .orderBy('proposed_at')
    .orderBy('id')
    .execute();
}

/**
 * Said when a member changes its link attribute: a placement's rel is fixed when it is proposed, so the change (and
 * its risk, or its safety) reaches only placements proposed from then on.
 */
async function keptRel(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const rels = await db
    .selectFrom('network_placements')
    .select(['rel', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('state', 'in', ACTIVE_STATES)
    .where((eb) => eb.or([eb('host_workspace_id', '=', workspaceId), eb('target_workspace_id', '=', workspaceId)]))
    .groupBy('rel')
    .orderBy('rel')
    .execute();
  const existing = rels.length === 0 ? 'you have none now' : `now ${rels.map((r) => `${Number(r.n)} carry ${r.rel === 'dofollow' ? 'no rel (dofollow)' : `rel="${r.rel}"`}`).join(', ')}`;
  return (
    'The new attribute applies to placements proposed from now on; proposed and live placements keep the rel they were proposed with ' +
    `(${existing}); retire one with remove_link_placement to stop its link.`
  );
}

function checkChange(change: MembershipChange): void {
  if (!change.member && change.linkAttribute !== undefined) throw BadInputError.field('linkAttribute', 'only with member: true; leaving has no link attribute');
}

export async function describeMembership(db: Kysely<Database>, workspaceId: string, change: MembershipChange): Promise<DryRunNote> {
  checkChange(change);
  const current = await membershipOf(db, workspaceId);
  const isMember = current?.member === 1;
  if (change.member) {
    const linkAttribute = change.linkAttribute ?? (isMember ? current.link_attribute : 'sponsored');
    const credits = current === undefined ? STARTING_CREDITS : 0;
    const action = isMember
      ? `Already a member; would set the link attribute to ${linkAttribute} for placements proposed from now on.`
      : `Would join the link network with links you host carrying ${linkAttribute === 'dofollow' ? 'no rel (dofollow)' : `rel="${linkAttribute}"`}` +
        `${credits > 0 ? `, grant ${credits} starting credits` : ''} and look for matching articles now and daily.`;
    const base = linkAttribute === 'dofollow' ? `${NETWORK_RISK} ${DOFOLLOW_RISK}` : NETWORK_RISK;
    const risk = isMember && linkAttribute !== current.link_attribute ? `${base} ${await keptRel(db, workspaceId)}` : base;
    return {
      note: `${action} Rules: ${NETWORK_RULES.join(' ')} ${risk} Repeat with confirm: true to ${isMember ? 'apply' : 'join'}.`,
      details: { action: isMember ? 'update' : 'join', linkAttribute, startingCredits: credits, rules: [...NETWORK_RULES], risk },
    };
  }
  if (!isMember) return { note: 'Not a member of the link network; nothing would change.', details: { action: 'none', placements: [] } };
  const placements = await activePlacementsOf(db, workspaceId);
  const listed = placements.map((p) => ({
    placementId: p.id,
    side: p.host_workspace_id === workspaceId ? 'given' : 'received',
    state: p.state,
    hostArticleUrl: p.host_url,
    targetUrl: p.target_url,
    anchorText: p.anchor_text,
  }));
  const lines = listed.map((p) => `${p.placementId} (${p.side}, ${p.state}): ${p.hostArticleUrl} → ${p.targetUrl}`);
  return {
    note:
      `Would leave the link network and retire ${placements.length} placement${placements.length === 1 ? '' : 's'}` +
      (lines.length > 0 ? `: ${lines.join('; ')}. Live links are removed from their host articles through a republish (article.updated).` : '.') +
      ' Credits stay as they are; no refunds. Repeat with confirm: true to leave.',
    details: { action: 'leave', placements: listed },
  };
}

export type MembershipAnswer = {
  member: boolean;
  joinedAt: string | null;
  leftAt: string | null;
  linkAttribute: LinkAttribute | null;
  creditsGranted: number;
  matchJobId: string | null;
  retiredPlacements: number;
  republishedArticles: number;
  /** Host articles that could not be republished: stored without their link, which destinations drop at the next publish. */
  storedArticles: number;
};

/** Joins (first join: starting credits; a matching job now), changes the link attribute, or leaves (every placement retired). */
export async function setMembership(db: Kysely<Database>, clock: Clock, workspaceId: string, change: MembershipChange): Promise<MembershipAnswer> {
  checkChange(change);
  const now = clock.now();
  const current = await membershipOf(db, workspaceId);
  const answer = (row: NonNullable<typeof current> | undefined, extra: Partial<MembershipAnswer> = {}): MembershipAnswer => ({
    member: row?.member === 1,
    joinedAt: row?.member === 1 ? toIso(row.joined_at) : null,
    leftAt: row?.member === 1 ? null : toIso(row?.left_at ?? null),
    linkAttribute: row?.link_attribute ?? null,
    creditsGranted: 0,
    matchJobId: null,
    retiredPlacements: 0,
    republishedArticles: 0,
    storedArticles: 0,
    ...extra,
  });
  if (change.member) {
    if (current?.member === 1) {
      const linkAttribute = change.linkAttribute ?? current.link_attribute;
      await db.updateTable('network_members').set({ link_attribute: linkAttribute }).where('workspace_id', '=', workspaceId).execute();
      return answer({ ...current, link_attribute: linkAttribute });
    }
    const linkAttribute = change.linkAttribute ?? 'sponsored';
    const joined = { member: 1, link_attribute: linkAttribute, joined_at: now, left_at: null };
    await db
      .insertInto('network_members')
      .values({ workspace_id: workspaceId, first_joined_at: now, last_match_at: null, last_match_note: null, ...joined })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(joined))
      .execute();
    const creditsGranted = current === undefined ? STARTING_CREDITS : 0;
    if (creditsGranted > 0) await bookCredit(db, { workspaceId, amount: creditsGranted, reason: 'joined', placementId: null, at: now });
    const matchJobId = await enqueueJob(db, clock, { workspaceId, kind: 'link_network_match', subjectId: workspaceId });
    return answer(await membershipOf(db, workspaceId), { creditsGranted, matchJobId });
  }
  if (current?.member !== 1) return answer(current);
  // Under the network lock, as matching and go-lives are: no placement is proposed or goes live with this workspace
  // between the list below being read and the membership ending.
  await takeNetworkLock(db, now);
  let retiredPlacements = 0;
  let republishedArticles = 0;
  let storedArticles = 0;
  for (const placement of await activePlacementsOf(db, workspaceId)) {
    const { republished, stored } = await retirePlacement(db, clock, placement, 'a side left the network');
    retiredPlacements++;
    if (republished) republishedArticles++;
    if (stored) storedArticles++;
  }
  await db.updateTable('network_members').set({ member: 0, left_at: now }).where('workspace_id', '=', workspaceId).execute();
  return answer(await membershipOf(db, workspaceId), { retiredPlacements, republishedArticles, storedArticles });
}
