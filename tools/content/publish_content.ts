import { z } from 'zod';
import { describePublish, publishArticle } from '../../src/publishing/publish.js';
import { defineTool } from '../define.js';
import { published } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'publish_content',
  method: 'POST',
  path: '/api/v1/content/publish',
  scope: 'write:publish',
  cap: 10,
  description:
    "Publish a written article (draft, or again after an edit) to the customer's site: the active destination and every feed destination. " +
    'Each gets article.published the first time, article.updated after. Deliveries go out by a job right after, signed and retried; ' +
    "their outcomes are on list_destinations. The live URL the active destination answers becomes the article's url. " +
    'Refused (400) for a planned, archived or being-written article, or with no destination.',
  annotations: { title: 'Publish content', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('The article (id from list_content).'),
  }),
  output: published,
  confirm: 'dry-run',
  describe: (ctx, input) => describePublish(ctx.db, ctx.workspaceId, input.contentId),
  handler: (ctx, input) => publishArticle(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
});
