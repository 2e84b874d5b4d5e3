import { z } from 'zod';
import { listSuppressions } from '../../src/outreach/suppressions.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize } from '../fields.js';
import { suppressionOutput } from './outputs.js';

export default defineTool({
  operationId: 'list_outreach_suppressions',
  method: 'GET',
  path: '/api/v1/outreach/suppressions',
  scope: 'read:content',
  cap: 30,
  description: 'The outreach suppression list (never written to), newest first.',
  annotations: { title: 'List outreach suppressions', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    page: pageNumber(),
    limit: pageSize(100, 50, 'Rows'),
  }),
  output: z.object({ ...pageFields, suppressions: z.array(suppressionOutput) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listSuppressions(ctx.db, ctx.workspaceId, input),
});
