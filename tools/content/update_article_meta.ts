import { z } from 'zod';
import {
  describeMetaChange,
  MAX_META_DESCRIPTION_CHARS,
  MAX_META_TITLE_CHARS,
  MAX_TITLE_CHARS,
  updateArticleMeta,
} from '../../src/domain/publishing/articleMeta.js';
import { defineTool } from '../define.js';
import { articleMeta } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'update_article_meta',
  method: 'POST',
  path: '/api/v1/content/meta',
  scope: 'write:content',
  cap: 20,
  description:
    `Change the title, meta title (at most ${MAX_META_TITLE_CHARS} characters) or meta description (at most ${MAX_META_DESCRIPTION_CHARS}) of a written article (draft or published); send at least one.\n` +
    'Dry run by default: without confirm: true nothing changes and the note says what would; repeat with confirm: true to save.\n' +
    'The slug and the URL never change. On a published article a real change is published again at once (article.updated to the destinations, as publish_content does). ' +
    'Refused (400) for a planned article (not written yet), an archived one, or one being written.',
  annotations: { title: 'Update article meta', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('The article to change, from list_content (its id).'),
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS).optional().describe(`New title, 1 to ${MAX_TITLE_CHARS} characters; the slug stays as it is.`),
    metaTitle: z.string().trim().min(1).max(MAX_META_TITLE_CHARS).optional().describe(`New meta title for search results, 1 to ${MAX_META_TITLE_CHARS} characters.`),
    metaDescription: z
      .string()
      .trim()
      .min(1)
      .max(MAX_META_DESCRIPTION_CHARS)
      .optional()
      .describe(`New meta description for search results, 1 to ${MAX_META_DESCRIPTION_CHARS} characters.`),
  }),
  output: articleMeta,
  confirm: 'dry-run',
  describe: (ctx, input) => describeMetaChange(ctx.db, ctx.workspaceId, input),
  handler: (ctx, input) => updateArticleMeta(ctx.db, ctx.clock, ctx.workspaceId, input),
});
