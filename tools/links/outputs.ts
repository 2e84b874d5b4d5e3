import { z } from 'zod';
import { isoTime } from '../fields.js';

// What the site-page operations answer.

export const addedPages = z.object({
  added: z.array(z.object({ pageId: z.string(), url: z.string() })),
  duplicates: z.array(z.string()).describe('URLs already kept, or named twice in the call.'),
});

export const sitePages = z.object({
  pages: z.array(
    z.object({
      pageId: z.string(),
      url: z.string(),
      title: z.string().nullable(),
      keywords: z.array(z.string()),
      source: z.enum(['manual', 'sitemap', 'blog']),
      createdAt: isoTime(),
    }),
  ),
  total: z.int(),
  limit: z.int(),
});

export const detectedPages = z.object({
  url: z.string().describe('The sitemap or blog page read.'),
  source: z.enum(['sitemap', 'blog']),
  sitemapsRead: z.int(),
  found: z.int(),
  added: z.int(),
  alreadyKnown: z.int(),
  overLimit: z.int().describe('Pages left out because the workspace keeps its maximum already.'),
  offSite: z.int().describe('Links and entries on another site, left out.'),
  failures: z.array(z.object({ url: z.string(), reason: z.string() })),
});
