import type { Kysely, Selectable } from 'kysely';
import type { Database, LeadsTable } from '../../db/schema.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { toIso } from '../shared/time.js';

export const LEADS_DEFINITION =
  'A lead is a form submitted on the site that the tracking loader reported (forms marked data-sightline-lead, or any form with an email field when the tag has data-leads="email"). ' +
  'firstTouch is where the visitor came from when the session of the submit began (referrer and utm_ tags, classified like the traffic sources); aiEngine is set when that was an answer engine.';

function leadRecord(row: Selectable<LeadsTable>) {
  return {
    leadId: row.id,
    createdAt: toIso(Number(row.created_at)),
    email: row.email,
    name: row.name,
    fields: JSON.parse(row.fields) as Record<string, string>,
    form: row.form,
    page: { path: row.path, url: row.page_url },
    referrer: row.referrer,
    utm: { source: row.utm_source, medium: row.utm_medium, campaign: row.utm_campaign },
    firstTouch: { source: row.source, engine: row.engine },
    aiEngine: row.source === 'ai' ? row.engine : null,
  };
}

/** Captured leads, newest first, a page at a time. */
export async function listLeads(db: Kysely<Database>, workspaceId: string, request: PageRequest) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('leads')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(request.limit)
      .offset(pageOffset(request))
      .execute(),
    db.selectFrom('leads').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  ]);
  return { definition: LEADS_DEFINITION, ...pageOf(request, Number(total.n)), leads: rows.map(leadRecord) };
}

/** Every lead of the workspace, oldest first: the personal data the counter holds, for a data export. */
export async function exportLeads(db: Kysely<Database>, workspaceId: string) {
  const rows = await db.selectFrom('leads').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  return rows.map(leadRecord);
}

/** Removes leads by id or by email address (every lead of that person); answers how many went. */
export async function removeLeads(db: Kysely<Database>, workspaceId: string, which: { leadId: string } | { email: string }): Promise<number> {
  const query = db.deleteFrom('leads').where('workspace_id', '=', workspaceId);
  const removed = await ('leadId' in which ? query.where('id', '=', which.leadId) : query.where('email', '=', which.email.trim().toLowerCase())).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
