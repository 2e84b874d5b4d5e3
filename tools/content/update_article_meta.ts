import { z } from 'zod';
import {
  describeMetaChange,
  MAX_IMAGE_ALT_CHARS,
  MAX_IMAGE_URL_CHARS,
  MAX_META_DESCRIPTION_CHARS,
  MAX_META_TITLE_CHARS,
  MAX_TITLE_CHARS,
  updateArticleMeta,
} from '../../src/publishing/articleMeta.js';
import { defineTool } from '../define.js';
import { articleMeta } from './outputs.js';
import { recordId, webUrlOrEmpty } from '../fields.js';

export default defineTool({
  operationId: 'update_article_meta',
  method: 'POST',
  path: '/api/v1/content/meta',
  scope: 'write:content',
  cap: 20,
  description:
    'Change the title, meta title, meta description or featured image of a written article (draft or published); send at least one. The slug and URL never change. ' +
    'A real change to a published article is published again at once, as publish_content does. ' +
    'Refused (400) for a planned, archived or being-written article.',
  annotations: { title: 'Update article meta', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('The article (id from list_content).'),
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS).optional().describe('New title; the slug stays.'),
    metaTitle: z.string().trim().min(1).max(MAX_META_TITLE_CHARS).optional().describe('Meta title for search results.'),
    metaDescription: z
      .string()
      .trim()
      .min(1)
      .max(MAX_META_DESCRIPTION_CHARS)
      .optional()
      .describe('Meta description for search results.'),
    featuredImageUrl: webUrlOrEmpty(['https:'], 'must be an https URL of an image such as https://cdn.example.com/cover.jpg')
      .max(MAX_IMAGE_URL_CHARS)
      .optional()
      .describe('https image for the article; CMS destinations upload it to their media library. "" removes it.'),
    featuredImageAlt: z.string().trim().max(MAX_IMAGE_ALT_CHARS).optional().describe('The image\'s alt text; "" or left out: the title.'),
  }),
  output: articleMeta,
  confirm: 'dry-run',
  describe: (ctx, input) => describeMetaChange(ctx.db, ctx.services.outbound, ctx.workspaceId, input),
  handler: (ctx, input) => updateArticleMeta(ctx.db, ctx.clock, ctx.services.outbound, ctx.workspaceId, input),
});
