import type { Insertable } from 'kysely';
import type { BacklinksTable } from '../../db/schema.js';
import { newId } from '../../src/ids.js';

type BacklinkFields = Partial<Insertable<BacklinksTable>> & Pick<Insertable<BacklinksTable>, 'workspace_id' | 'linking_url'>;

/**
 * A whole `backlinks` row as the index writes one (discovered, no authority), first seen `at`; the fields a test
 * cares about override it. A lost row gets its lost date unless the test gives one.
 */
export function backlinkRow(at: number, fields: BacklinkFields): Insertable<BacklinksTable> {
  const status = fields.status ?? 'discovered';
  return {
    id: newId('bl'),
    linking_domain: new URL(fields.linking_url).hostname.replace(/^www\./, ''),
    target_url: 'https://acme.example/',
    anchor_text: 'Acme',
    dofollow: 1,
    domain_authority: null,
    authority_metric: null,
    source: 'index',
    prospect_id: null,
    placement_id: null,
    discovered_at: at,
    placed_at: null,
    last_verified_at: null,
    lost_at: status === 'lost' ? at : null,
    status_changed_at: at,
    check_error: null,
    next_check_at: null,
    ...fields,
    status,
  };
}
