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
    "The tracked competitors with how AI answer engines treated each over the last 30 UTC days (mentions, citations, cited domains, positioning beside the brand), and the brand's own numbers beside them. " +
    'Use it to compare the brand with its competitors; add_competitor and remove_competitor change the list.',
  annotations: { title: 'Get competitors', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: competitorsReport,
  confirm: 'none',
  handler: (ctx) => listCompetitors(ctx.db, ctx.workspaceId, ctx.clock.now(), ctx.services.writer !== undefined),
});
