import { z } from 'zod';
import { MAX_ARTICLES_PER_DAY } from '../../src/content/calendar.js';
import { WEEKDAYS } from '../../src/content/policy.js';
import { updateArticlePolicy } from '../../src/content/policyUpdate.js';
import { defineTool } from '../define.js';
import { policyView } from './outputs.js';

export default defineTool({
  operationId: 'update_article_policy',
  method: 'POST',
  path: '/api/v1/settings/articles',
  scope: 'manage:org',
  cap: 10,
  description:
    'Change the article policy; only the fields sent change. Slots already booked keep their dates; new plans follow the new days and time.\n' +
    `articlesPerDay above 1 (up to ${MAX_ARTICLES_PER_DAY}) needs flexibleScheduling on in the brand profile. authorName must be one of the brand's authors. ` +
    'autoWrite: true is refused until one article has been confirmed live on the site (see autoWriteAvailable).',
  annotations: { title: 'Update article policy', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    publishDays: z
      .array(z.enum(WEEKDAYS))
      .min(1)
      .refine((days) => new Set(days).size === days.length, 'must not name a day twice')
      .optional()
      .describe('Weekdays with publish slots (UTC), each once, e.g. ["mon", "fri"].'),
    publishTime: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time HH:MM, e.g. 09:00')
      .optional()
      .describe('Slot time, HH:MM UTC.'),
    articlesPerDay: z
      .int()
      .min(1)
      .max(MAX_ARTICLES_PER_DAY)
      .optional()
      .describe('Above 1 only with flexibleScheduling on.'),
    targetWordCount: z.int().min(300).max(5000).optional().describe('Words the writer aims for.'),
    includeFaq: z.boolean().optional().describe('Whether articles end with a FAQ (and carry FAQPage structured data).'),
    contentType: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be a lower-case word of letters, digits and _ (at most 40 characters), e.g. blog_post')
      .optional()
      .describe('For new planned articles, e.g. blog_post, guide.'),
    categoryName: z.string().trim().max(100).optional().describe('Category the receiving site files articles under; an empty string clears it.'),
    authorName: z.string().trim().max(200).optional().describe('A brand author who signs articles; an empty string clears it (the first author signs).'),
    autoWrite: z.boolean().optional().describe('Write planned articles ahead of their slot.'),
    autoPublish: z.boolean().optional().describe('Publish written articles at their slot.'),
  }),
  output: policyView,
  confirm: 'none',
  handler: (ctx, input) => updateArticlePolicy(ctx.db, ctx.clock, ctx.workspaceId, input),
});
