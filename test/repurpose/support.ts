import type { Kysely } from 'kysely';
import type { Database, RepurposeChannel, RepurposeState, SchedulerTool } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import type { CredentialSealer } from '../../src/credentials/sealed.js';
import { newId } from '../../src/ids.js';
import { taggedLink } from '../../src/repurpose/channels.js';
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
  const id = newId('rpd');
  const link = taggedLink(`https://acme.example/blog/${contentId}`, channel, 'repurpose');
  const now = t.clock.now();
  await t.db
    .insertInto('repurpose_drafts')
    .values({
      id,
      workspace_id: workspaceId,
      content_id: contentId,
      channel,
      posts: JSON.stringify(options.posts ?? [`Dentists lose patients to missed reminders & no-shows. A CRM fixes that: ${link}`]),
      link_url: link,
      state: options.state ?? 'draft',
      scheduler: null,
      scheduler_channel_id: null,
      scheduler_channel_name: null,
      scheduled_for: null,
      idempotency_key: null,
      push_job_id: null,
      external_id: null,
      external_url: null,
      pushed_at: null,
      posted_at: null,
      posted_url: null,
      error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
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
