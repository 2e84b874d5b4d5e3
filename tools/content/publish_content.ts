import { z } from 'zod';
import { describePublish, publishArticle } from '../../src/domain/publishing/publish.js';
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
    "Publish a written article (draft, or published again after an edit) to the customer's site: to the active destination and to every feed destination.\n" +
    'Dry run by default: without confirm: true nothing changes and the note says what would be sent where; repeat with confirm: true to publish.\n' +
    'Each destination gets article.published the first time it receives the article and article.updated afterwards (same article id). ' +
    'Deliveries are recorded now and sent by the job worker right after (signed, retried on timeouts, connection failures and 5xx); their outcomes are recorded on the destinations (list_destinations), never returned here. ' +
    'When the active destination answers with the live URL, it becomes the article\'s url and a render check loads it about two minutes later.\n' +
    'Refused (400) for a planned, archived or being-written article, and when no destination is set up.',
  annotations: { title: 'Publish content', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('The article to publish, from list_content (its id).'),
  }),
  output: published,
  confirm: 'dry-run',
  describe: (ctx, input) => describePublish(ctx.db, ctx.workspaceId, input.contentId),
  handler: (ctx, input) => publishArticle(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
});
