import type { Kysely } from 'kysely';
import type { BacklinkSource, Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { newId } from '../ids.js';
import { domainOf } from '../shared/urls.js';

/** A link the service knows was placed (outreach, the owner, the network): verification then checks the page for it. */
export interface PlacedLink {
  workspaceId: string;
  linkingUrl: string;
  targetUrl: string;
  anchorText: string;
  /** What the placement asked for; verification reads the real `rel` and corrects it. */
  dofollow: boolean;
  source: Exclude<BacklinkSource, 'index'>;
  prospectId?: string;
  placementId?: string;
}

/** The status a placed link starts in, before its first verification: outreach reports `link_placed`, the others `placed`. */
function placedStatus(source: PlacedLink['source']): 'link_placed' | 'placed' {
  return source === 'outreach' ? 'link_placed' : 'placed';
}

/**
 * Records a placed link in the caller's transaction and makes it due for verification now. The same link (linking
 * page, target) recorded again, for example found by the index first, keeps its row and becomes due again; the
 * placement's source and ids are written onto it, since the service now vouches for that link.
 */
export async function recordPlacedLink(db: Kysely<Database>, clock: Clock, link: PlacedLink): Promise<string> {
  const linkingDomain = domainOf(link.linkingUrl);
  if (linkingDomain === undefined) throw BadInputError.field('linkingUrl', 'must be an http(s) URL');
  const now = clock.now();
  const status = placedStatus(link.source);
  const placement = { source: link.source, prospect_id: link.prospectId ?? null, placement_id: link.placementId ?? null };
  const row = await db
    .insertInto('backlinks')
    .values({
      id: newId('bl'),
      workspace_id: link.workspaceId,
      linking_url: link.linkingUrl,
      linking_domain: linkingDomain,
      target_url: link.targetUrl,
      anchor_text: link.anchorText,
      dofollow: link.dofollow ? 1 : 0,
      domain_authority: null,
      authority_metric: null,
      status,
      ...placement,
      discovered_at: now,
      placed_at: now,
      last_verified_at: null,
      lost_at: null,
      status_changed_at: now,
      check_error: null,
      next_check_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'linking_url', 'target_url']).doUpdateSet({ ...placement, status, placed_at: now, status_changed_at: now, lost_at: null, check_error: null, check_failures: 0, next_check_at: now }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
