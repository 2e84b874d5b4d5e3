import { z } from 'zod';
import { loadBrandRow } from '../../src/brand/readBrand.js';
import { BadInputError } from '../../src/errors.js';
import { defineTool } from '../../tools/define.js';
import { registry } from '../../tools/index.js';
import { extendRegistry, type Registry } from '../../tools/registry.js';

// Registered only here: a change that waits for the owner, to exercise the mechanism before its first real user.
export const renameBrandForTest = defineTool({
  operationId: 'rename_brand_for_test',
  method: 'POST',
  path: '/api/v1/test/rename-brand',
  scope: 'write:content',
  cap: 'plan',
  description: 'Test-only operation: renames the brand once the workspace owner approves the change.',
  annotations: { title: 'Rename brand (test)', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({ name: z.string().min(1).describe('New brand name; "fail" makes the approved run fail.') }),
  output: z.object({ renamed: z.string() }),
  confirm: 'none',
  approval: 'owner',
  describe: async (ctx, input) => `Would rename the brand "${(await loadBrandRow(ctx.db, ctx.workspaceId)).name}" to "${input.name}".`,
  handler: async (ctx, input) => {
    if (input.name === 'fail') throw BadInputError.field('name', 'this name is refused when the change runs');
    await ctx.db.updateTable('brands').set({ name: input.name }).where('workspace_id', '=', ctx.workspaceId).execute();
    return { renamed: input.name };
  },
});

/** The real registry plus the operations that exist only in tests, in a toolset of their own. */
export function registryWithTestOperations(): Registry {
  return extendRegistry(registry, 'test', { description: 'Operations that exist only in tests.', operations: [renameBrandForTest] });
}
