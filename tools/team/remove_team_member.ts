import { z } from 'zod';
import { describeRemoval, removeMember } from '../../src/team/members.js';
import { defineTool } from '../define.js';
import { removedMember } from './outputs.js';

export default defineTool({
  operationId: 'remove_team_member',
  method: 'POST',
  path: '/api/v1/team/remove',
  scope: 'manage:org',
  cap: 5,
  description:
    'Remove a member from this workspace and revoke every API key they created in it; they keep their account and other workspaces. ' +
    'Without confirm: true it is refused with a note naming who and how many keys. The last owner cannot be removed (400).',
  annotations: { title: 'Remove team member', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    userId: z.string().min(1).max(100).describe('From get_team.'),
  }),
  output: removedMember,
  confirm: 'required',
  describe: (ctx, input) => describeRemoval(ctx.db, ctx.workspaceId, input.userId, ctx.caller.userId),
  handler: (ctx, input) => removeMember(ctx.db, ctx.clock, ctx.workspaceId, input.userId),
});
