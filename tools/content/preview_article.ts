import { z } from 'zod';
import { previewArticle } from '../../src/content/preview.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'preview_article',
  method: 'GET',
  path: '/api/v1/content/preview',
  scope: 'read:content',
  cap: 30,
  description:
    'A written article (draft or published) rendered as publish_content would send it now: sanitised HTML with internal links, related reading and FAQ. ' +
    'Nothing is recorded; an article not written yet is a 400.',
  annotations: { title: 'Preview article', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The article (its id from list_content).'),
  }),
  output: z.object({
    contentId: z.string(),
    title: z.string(),
    metaTitle: z.string().nullable(),
    metaDescription: z.string().nullable(),
    html: z.string(),
    internalLinks: z.number().int().describe('Internal links the body would carry.'),
  }),
  confirm: 'none',
  handler: (ctx, input) => previewArticle(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
});
