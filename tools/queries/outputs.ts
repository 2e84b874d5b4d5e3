import { z } from 'zod';
import { isoTime } from '../fields.js';

// The tracked query as add_query, list_queries and the content tools answer it.

export const articleStatus = z.enum(['planned', 'draft', 'published', 'archived']);

export const trackedQuery = z.object({
  id: z.string(),
  text: z.string(),
  source: z.enum(['user', 'idea', 'returned']).describe('user: add_query; idea: planned from an idea; returned: keyword of a deleted planned title.'),
  hidden: z.boolean().describe('Hidden from the content ideas; still tracked.'),
  suggestedTitle: z.string().nullable(),
  createdAt: isoTime(),
  articleId: z.string().nullable().describe('The non-archived article covering it.'),
  articleStatus: articleStatus.nullable(),
});

export const queryUsage = z.object({ used: z.int(), limit: z.int() });
