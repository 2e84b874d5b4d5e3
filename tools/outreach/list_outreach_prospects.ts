import { z } from 'zod';
import { listProspects } from '../../src/outreach/prospects.js';
import { OUTREACH_STAGES } from '../../src/outreach/stages.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize } from '../fields.js';
import { prospectOutput } from './outputs.js';

export default defineTool({
  operationId: 'list_outreach_prospects',
  method: 'GET',
  path: '/api/v1/outreach/prospects',
  scope: 'read:content',
  cap: 'plan',
  description:
    'The outreach pipeline: sites the workspace may earn a link from (found in engine answers citing competitors, competitors\' referring domains, pages ranking for tracked queries, or imported), ' +
    'each with why, its stage (identified, contacted, replied, link_placed, rejected) and contact; last moved first, with the count in every stage.',
  annotations: { title: 'List outreach prospects', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    stage: z.enum(OUTREACH_STAGES).optional().describe('Only prospects in this stage.'),
    page: pageNumber(),
    limit: pageSize(100, 50, 'Prospects'),
  }),
  output: z.object({
    ...pageFields,
    counts: z.object(Object.fromEntries(OUTREACH_STAGES.map((stage) => [stage, z.int()])) as Record<(typeof OUTREACH_STAGES)[number], z.ZodInt>).describe('Prospects in each stage.'),
    prospects: z.array(prospectOutput),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listProspects(ctx.db, ctx.workspaceId, input),
});
