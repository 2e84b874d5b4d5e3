import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { LinkNetworkSettings } from '../config.js';
import { ACTIVE_STATES, creditBalance, isMember, monthStart } from './network.js';

/** A link the network would place (or is about to put live): host site and article, target site and page. */
export interface ProposedLink {
  /** Set when re-checking an existing placement at approval: it does not count against itself. */
  placementId?: string;
  hostWorkspaceId: string;
  hostArticleId: string;
  targetWorkspaceId: string;
  targetUrl: string;
}

/** The rules as members read them: the dry run of joining states them, and the link network's guide page (docs/guide/link-network.md). */
export const NETWORK_RULES = [
  'Placements are proposed only between members, when the host article and the target page are on the same topic (embedding similarity above the threshold) and in the same language.',
  'Every placement needs the approval of both owners; nothing is linked before both approve.',
  'No reciprocal links (A to B while B to A is proposed or live) and no short cycles (A to B while B to C and C to A are).',
  'At most one network link per article, and a monthly cap per site on placements hosted and on placements received.',
  'Anchors vary between the target brand name, the target page title and the bare domain; no exact-match keyword anchors.',
  'Links carry rel="sponsored" unless the owner chose nofollow, or chose dofollow explicitly (then both owners must have chosen it).',
  'Credits: 3 on first joining; a placement that goes live earns the host 1 and costs the target 1; a target needs a credit; retired placements do not refund, ' +
    'nor do links verification finds lost (shown as lost; either side may retire them).',
  'Leaving retires every placement, given and received, and republishes each host article without its link.',
] as const;

/**
 * Why the network would refuse this link now, or null when every rule allows it. Checked when a placement is
 * proposed and again when the second owner approves, since the network may have changed in between.
 */
export async function ruleRefusal(db: Kysely<Database>, settings: LinkNetworkSettings, link: ProposedLink, now: number): Promise<string | null> {
  const { hostWorkspaceId: host, targetWorkspaceId: target } = link;
  const self = link.placementId ?? '';
  if (host === target) return 'a site does not link to itself through the network';
  if (!(await isMember(db, host))) return 'the host site is not a member of the network';
  if (!(await isMember(db, target))) return 'the target site is not a member of the network';

  const active = db.selectFrom('network_placements').select('id').where('state', 'in', ACTIVE_STATES).where('id', '!=', self);
  const reciprocal = await active.where('host_workspace_id', '=', target).where('target_workspace_id', '=', host).limit(1).executeTakeFirst();
  if (reciprocal !== undefined) return 'reciprocal link: the target site already links to the host site through the network';

  // A→B is refused when B→C and C→A exist: B's outgoing placements whose target links back to A.
  const cycle = await db
    .selectFrom('network_placements as bc')
    .innerJoin('network_placements as ca', 'ca.host_workspace_id', 'bc.target_workspace_id')
    .select('bc.id')
    .where('bc.host_workspace_id', '=', target)
    .where('ca.target_workspace_id', '=', host)
    .where('bc.state', 'in', ACTIVE_STATES)
    .where('ca.state', 'in', ACTIVE_STATES)
    .where('bc.id', '!=', self)
    .where('ca.id', '!=', self)
    .limit(1)
    .executeTakeFirst();
  if (cycle !== undefined) return 'short cycle: the target site links to a site that links to the host site';

  const sameArticle = await active.where('host_article_id', '=', link.hostArticleId).limit(1).executeTakeFirst();
  if (sameArticle !== undefined) return 'the host article already carries a network link';

  const month = monthStart(now);
  const thisMonth = (column: 'host_workspace_id' | 'target_workspace_id', workspaceId: string) =>
    db
      .selectFrom('network_placements')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', workspaceId)
      .where('state', '!=', 'declined')
      .where('proposed_at', '>=', month)
      .where('id', '!=', self)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  if ((await thisMonth('host_workspace_id', host)) >= settings.monthlyCap) return `the host site has reached its monthly cap of ${settings.monthlyCap} placements hosted`;
  if ((await thisMonth('target_workspace_id', target)) >= settings.monthlyCap) return `the target site has reached its monthly cap of ${settings.monthlyCap} placements received`;

  // Credits promised to pending placements count as spent, so a target cannot collect more links than it can pay for.
  const pending = await db
    .selectFrom('network_placements')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('target_workspace_id', '=', target)
    .where('state', '=', 'proposed')
    .where('id', '!=', self)
    .executeTakeFirstOrThrow();
  if ((await creditBalance(db, target)) - Number(pending.n) < 1) return 'the target site has no credits left';
  return null;
}
