import type { Kysely } from 'kysely';
import type { Database, RepurposeChannel, RepurposeState, SchedulerTool } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import type { CredentialSealer } from '../../src/credentials/sealed.js';
import { taggedLink } from '../../src/repurpose/channels.js';
import { newDraftRow } from '../../src/repurpose/drafts.js';
import { writtenArticle } from '../publishing/support.js';

interface Db {
  db: Kysely<Database>;
  clock: Clock;
}

/** A published article of the workspace, as a delivery leaves it. */
export async function publishedArticle(t: Db, workspaceId: string): Promise<string> {
  const id = await writtenArticle(t, { workspaceId });
  await t.db.updateTable('articles').set({ status: 'published', published_at: t.clock.now(), url: `https://acme.example/blog/${id}` }).where('id', '=', id).execute();
  return id;
}

/** A repurpose draft written straight into the table, as generation leaves it. */
export async function insertRepurposeDraft(t: Db, workspaceId: string, options: { channel?: RepurposeChannel; posts?: string[]; state?: RepurposeState; contentId?: string } = {}): Promise<string> {
  const channel = options.channel ?? 'linkedin';
  const contentId = options.contentId ?? (await publishedArticle(t, workspaceId));
  const link = taggedLink(`https://acme.example/blog/${contentId}`, channel, 'repurpose');
  const row = newDraftRow({
    workspaceId,
    contentId,
    channel,
    parts: options.posts ?? [`Dentists lose patients to missed reminders & no-shows. A CRM fixes that: ${link}`],
    linkUrl: link,
    now: t.clock.now(),
    state: options.state ?? 'draft',
  });
  await t.db.insertInto('repurpose_drafts').values(row).execute();
  return row.id;
}

/** The workspace connected to a scheduling tool, its key sealed as the dashboard stores it. */
export async function connectScheduler(t: Db, credentials: CredentialSealer, workspaceId: string, tool: SchedulerTool, baseUrl: string, apiKey: string, accountId: string | null = null): Promise<void> {
  const now = t.clock.now();
  await t.db
    .insertInto('scheduler_connections')
    .values({ workspace_id: workspaceId, tool, base_url: baseUrl, api_key: credentials.seal(apiKey), account_id: accountId, checked_at: null, last_error: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ tool, base_url: baseUrl, api_key: credentials.seal(apiKey), account_id: accountId, updated_at: now }))
    .execute();
}
