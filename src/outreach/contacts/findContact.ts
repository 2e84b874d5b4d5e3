import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { BadInputError } from '../../errors.js';
import { prospectRecord } from '../prospects.js';
import { findProspect } from '../stages.js';
import { contactFinderServiceError, type ContactFinder, type ContactFinders, type ContactSourceName } from './finder.js';

export interface ContactSearch {
  prospectId: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/**
 * Finds who to write to at a prospect: Hunter when configured, else (or when it finds nothing) the prospect's own
 * contact and about pages. Runs outside any transaction (the finders call out); the contact found is stored on the
 * prospect in one short statement. When nothing is found the prospect keeps the contact it had.
 */
export async function findOutreachContact(db: Kysely<Database>, clock: Clock, finders: ContactFinders, workspaceId: string, search: ContactSearch) {
  if ((search.firstName === undefined) !== (search.lastName === undefined)) {
    throw BadInputError.field(search.firstName === undefined ? 'firstName' : 'lastName', 'give firstName and lastName together, or neither');
  }
  const prospect = await findProspect(db, workspaceId, search.prospectId);
  const request = { domain: prospect.domain, pageUrl: prospect.page_url, firstName: search.firstName, lastName: search.lastName };
  const tried: { source: ContactSourceName; found: boolean; note: string | null }[] = [];
  const order: ContactFinder[] = finders.hunter === undefined ? [finders.site] : [finders.hunter, finders.site];
  for (const finder of order) {
    const outcome = await finder.find(request).catch((error: unknown) => {
      throw contactFinderServiceError(error);
    });
    if (outcome.found === null) {
      tried.push({ source: finder.source, found: false, note: outcome.note });
      continue;
    }
    tried.push({ source: finder.source, found: true, note: null });
    const contact = outcome.found;
    await db
      .updateTable('outreach_prospects')
      .set({ contact_email: contact.email, contact_name: contact.name, contact_confidence: contact.confidence, contact_source: contact.source, contact_found_at: clock.now() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', prospect.id)
      .execute();
    break;
  }
  const found = tried.some((attempt) => attempt.found);
  return {
    found,
    hunterConfigured: finders.hunter !== undefined,
    tried,
    prospect: prospectRecord(await findProspect(db, workspaceId, prospect.id)),
  };
}
