import type { Kysely } from 'kysely';
import type { Database, SocialThreadsTable } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import type { FoundThread } from '../../src/social/sources/source.js';
import { newThreadRow } from '../../src/social/threads.js';

/** A thread as the daily search leaves it: new, open, judged by the writer. */
export async function insertThread(db: Kysely<Database>, clock: Clock, workspaceId: string, overrides: Partial<SocialThreadsTable> = {}): Promise<string> {
  const id = overrides.id ?? newId('sth');
  const now = clock.now();
  const thread: FoundThread = {
    externalId: id.slice(-10),
    url: `https://news.ycombinator.com/item?id=${id.slice(-6)}`,
    title: 'Ask HN: Which CRM do dental clinics use?',
    excerpt: 'We run three clinics and outgrew spreadsheets. What do you use for patient follow-ups?',
    community: 'Hacker News',
    author: 'pg_fan',
    postedAt: now - 3_600_000,
    comments: 12,
    points: 40,
    state: 'open',
  };
  const judgement = { relevance: 85, reason: 'Someone asks which CRM fits dental clinics.', scoredBy: 'writer' } as const;
  await db
    .insertInto('social_threads')
    .values({ ...newThreadRow(workspaceId, 'hackernews', thread, { text: 'crm for dentists', kind: 'query' }, judgement, now), id, ...overrides })
    .execute();
  return id;
}
