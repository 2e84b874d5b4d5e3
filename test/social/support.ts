import type { Kysely } from 'kysely';
import type { Database, SocialThreadsTable } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { newId } from '../../src/ids.js';

/** A thread as the daily search leaves it: new, open, judged by the writer. */
export async function insertThread(db: Kysely<Database>, clock: Clock, workspaceId: string, overrides: Partial<SocialThreadsTable> = {}): Promise<string> {
  const id = overrides.id ?? newId('sth');
  const now = clock.now();
  await db
    .insertInto('social_threads')
    .values({
      id,
      workspace_id: workspaceId,
      source: 'hackernews',
      external_id: id.slice(-10),
      url: `https://news.ycombinator.com/item?id=${id.slice(-6)}`,
      title: 'Ask HN: Which CRM do dental clinics use?',
      excerpt: 'We run three clinics and outgrew spreadsheets. What do you use for patient follow-ups?',
      community: 'Hacker News',
      author: 'pg_fan',
      posted_at: now - 3_600_000,
      comments: 12,
      points: 40,
      matched_query: 'crm for dentists',
      matched_kind: 'query',
      relevance: 85,
      relevance_reason: 'Someone asks which CRM fits dental clinics.',
      scored_by: 'writer',
      source_state: 'open',
      state_checked_at: now,
      status: 'new',
      status_changed_at: now,
      reply_draft: null,
      reply_drafted_at: null,
      reply_url: null,
      first_seen_at: now,
      updated_at: now,
      ...overrides,
    })
    .execute();
  return id;
}
