import type { Kysely } from 'kysely';
import type { BacklinkSource, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { onDomain } from '../outreach/prospects.js';
import { domainOf } from '../shared/urls.js';
import { recordPlacedLink } from './knownLinks.js';
import { backlinkRecord } from './listing.js';

/** A link the owner placed themselves and asks the service to keep checking. */
export interface ManagedLink {
  linkingUrl: string;
  targetUrl?: string | undefined;
  anchorText?: string | undefined;
  dofollow?: boolean | undefined;
}

/** Why a row of another source is not the owner's to remove: each has its own flow that keeps it. */
const KEPT_ELSEWHERE: Record<Exclude<BacklinkSource, 'managed'>, string> = {
  index: 'comes from the backlink index, which finds it again on its next sync; only managed links are removed here',
  outreach: 'was recorded by outreach (set_outreach_status); only managed links are removed here',
  network: 'is a link-network placement; retire it with remove_link_placement',
};

async function findBacklink(db: Kysely<Database>, workspaceId: string, backlinkId: string) {
  const row = await db.selectFrom('backlinks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', backlinkId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('Backlink', backlinkId);
  return row;
}

/**
 * Records a link the owner placed (source `managed`, status `placed`, due for verification now). The linking page must
 * be elsewhere than the workspace's site, and the target on it (a link to another site is not this site's backlink).
 * The same link again keeps its row; one the index found becomes managed, while an outreach or network link is refused,
 * since taking it over would cut it off from the flow that owns it.
 */
export async function addManagedLink(db: Kysely<Database>, clock: Clock, workspaceId: string, link: ManagedLink) {
  const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const ownDomain = domainOf(workspace.website_url);
  // Written as URL writes them (a bare host gets its slash), as the index writes its rows, so the same link meets its row.
  const linkingUrl = URL.canParse(link.linkingUrl) ? new URL(link.linkingUrl).href : link.linkingUrl;
  const linkingDomain = domainOf(linkingUrl);
  if (linkingDomain === undefined) throw BadInputError.field('linkingUrl', 'must be an http(s) URL');
  if (ownDomain !== undefined && onDomain(linkingDomain, ownDomain)) {
    throw BadInputError.field('linkingUrl', `must be a page on another site: ${linkingDomain} is the workspace's own site, and a link from it is not a backlink`);
  }
  const targetUrl = new URL(link.targetUrl ?? workspace.website_url).href;
  const targetDomain = domainOf(targetUrl);
  if (ownDomain === undefined || targetDomain === undefined || !onDomain(targetDomain, ownDomain)) {
    throw BadInputError.field('targetUrl', `must be a page of the workspace's website (${ownDomain ?? workspace.website_url})`);
  }
  const existing = await db
    .selectFrom('backlinks')
    .select(['id', 'source'])
    .where('workspace_id', '=', workspaceId)
    .where('linking_url', '=', linkingUrl)
    .where('target_url', '=', targetUrl)
    .executeTakeFirst();
  if (existing !== undefined && (existing.source === 'outreach' || existing.source === 'network')) {
    throw BadInputError.field('linkingUrl', `this link is already tracked as backlink ${existing.id}, which ${KEPT_ELSEWHERE[existing.source]}`);
  }
  const id = await recordPlacedLink(db, clock, {
    workspaceId,
    linkingUrl,
    targetUrl,
    anchorText: link.anchorText ?? '',
    dofollow: link.dofollow ?? true,
    source: 'managed',
  });
  return backlinkRecord(await findBacklink(db, workspaceId, id));
}

/** Stops tracking a link the owner recorded: deletes its row (the triggers of migration 0022 take it off the tallies). */
export async function removeManagedLink(db: Kysely<Database>, workspaceId: string, backlinkId: string) {
  const row = await findBacklink(db, workspaceId, backlinkId);
  if (row.source !== 'managed') throw BadInputError.field('backlinkId', `backlink ${row.id} ${KEPT_ELSEWHERE[row.source]}`);
  await db.deleteFrom('backlinks').where('workspace_id', '=', workspaceId).where('id', '=', row.id).execute();
  return { removed: backlinkRecord(row) };
}
