import { z } from 'zod';
import { removeManagedLink } from '../../src/backlinks/managed.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { backlinkOutput } from './outputs.js';

export default defineTool({
  operationId: 'remove_managed_backlink',
  method: 'POST',
  path: '/api/v1/backlinks/managed/remove',
  scope: 'write:backlinks',
  cap: 30,
  description: 'Stop tracking a managed backlink (deletes its row); rows of other sources are refused.',
  annotations: { title: 'Remove managed backlink', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    backlinkId: recordId().describe("A managed row's backlinkId."),
  }),
  output: z.object({ removed: backlinkOutput.describe('The row as it was.') }),
  confirm: 'none',
  handler: (ctx, input) => removeManagedLink(ctx.db, ctx.workspaceId, input.backlinkId),
});
