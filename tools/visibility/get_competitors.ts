import { z } from 'zod';
import { listCompetitors } from '../../src/visibility/competitors/listCompetitors.js';
import { defineTool } from '../define.js';
import { competitorsReport } from './outputs.js';

export default defineTool({
  operationId: 'get_competitors',
  method: 'GET',
  path: '/api/v1/competitors',
  scope: 'read:citations',
  cap: 30,
  description:
    'The tracked competitors with how AI answer engines treated each over the last 30 UTC days (today included), and the brand\'s own numbers beside them.\n' +
    'Use it to compare the brand with its competitors; add_competitor and remove_competitor change the list.\n' +
    'aiVisibilityScore: 100 x mentionRate, null before any answer. mentionRate: answers citing or mentioning / answers given ({ rate 0-1, interval 95 % Wilson, count, of }). ' +
    'citations: { cited, mentioned (named, not cited), checks (answers given), failed (checks without an answer, not in checks) }. ' +
    'domainMetrics: { domain, citedInAnswers, answersWithCitations, citationRate }. positioning: how answers place it beside the brand.',
  annotations: { title: 'Get competitors', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: competitorsReport,
  confirm: 'none',
  handler: (ctx) => listCompetitors(ctx.db, ctx.workspaceId, ctx.clock.now(), ctx.services.writer !== undefined),
});
