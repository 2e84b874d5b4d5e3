import { z } from 'zod';
import { THREAD_STATUSES } from '../../src/social/threads.js';
import { SOCIAL_SOURCE_NAMES } from '../../src/social/sources/source.js';
import { isoTime } from '../fields.js';

/** A social thread as every social answer gives it. */
export const socialThread = z.object({
  threadId: z.string(),
  source: z.enum(SOCIAL_SOURCE_NAMES),
  community: z.string().describe('Hacker News, the Stack Exchange site, Bluesky, or r/<subreddit>.'),
  title: z.string(),
  url: z.string().describe('Where a person opens it to reply.'),
  excerpt: z.string(),
  author: z.string().nullable(),
  postedAt: isoTime(),
  comments: z.int().nullable(),
  points: z.int().nullable(),
  matchedQuery: z.string().describe('The tracked query, brand or competitor name whose search found it.'),
  matchedKind: z.enum(['query', 'brand', 'competitor']),
  relevance: z.int().describe('0–100: how well a reply from the brand would answer it.'),
  relevanceReason: z.string(),
  scoredBy: z.enum(['writer', 'terms']).describe('writer: the writer model judged it; terms: its words did (no writer configured, or the call failed).'),
  freshness: z.int().describe('100 when just posted, falling to 0 at two weeks old.'),
  score: z.int().describe('What best-first sorts by: relevance × (50 + freshness/2) / 100.'),
  sourceState: z.enum(['open', 'locked', 'deleted', 'archived']).describe('At the source, when last checked.'),
  stateCheckedAt: isoTime(),
  status: z.enum(THREAD_STATUSES),
  statusChangedAt: isoTime(),
  replyDraft: z.string().nullable(),
  replyDraftedAt: isoTime().nullable(),
  replyUrl: z.string().nullable().describe('Where the reply was posted, when given.'),
  firstSeenAt: isoTime(),
});
