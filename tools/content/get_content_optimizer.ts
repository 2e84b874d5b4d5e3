import { z } from 'zod';
import { findArticle } from '../../src/content/articles.js';
import { citabilityReport, healthReport } from '../../src/content/optimizer.js';
import { readArticlePolicy } from '../../src/content/policy.js';
import { BadInputError } from '../../src/errors.js';
import { internalLinksOutCount } from '../../src/links/internalLinks.js';
import { defineTool } from '../define.js';
import { optimizerReport } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'get_content_optimizer',
  method: 'GET',
  path: '/api/v1/content/optimizer',
  scope: 'read:content',
  cap: 'plan',
  description:
    'Citability report of one written article: how quotable it is for AI answer engines (answer-first opening, headings, FAQ, structured data, outside sources, statistics, freshness; ' +
    "0 to 100), with a reason for every point, plus its health (meta lengths, length against the policy's target, internal links, live check). " +
    'A planned (unwritten) article is a 400 naming contentId.',
  annotations: { title: 'Get content optimizer report', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The written article (its id from list_content).'),
  }),
  output: optimizerReport,
  confirm: 'none',
  handler: async (ctx, input) => {
    const article = await findArticle(ctx.db, ctx.workspaceId, input.contentId);
    if (article.markdown === null) throw BadInputError.field('contentId', `article ${article.id} is not written yet; the optimizer reads a written article`);
    const now = ctx.clock.now();
    const linksOut = await internalLinksOutCount(ctx.db, ctx.workspaceId, article.id);
    const policy = await readArticlePolicy(ctx.db, ctx.workspaceId);
    return {
      contentId: article.id,
      title: article.title,
      status: article.status,
      citability: citabilityReport(article, now),
      health: healthReport(article, { internalLinksOut: linksOut, now, targetWordCount: policy.targetWordCount }),
    };
  },
});
