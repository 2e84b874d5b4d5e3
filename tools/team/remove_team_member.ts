import { z } from 'zod';
import { describeRemoval, removeMember } from '../../src/domain/team/members.js';
import { defineTool } from '../define.js';
import { removedMember } from './outputs.js';

export default defineTool({
  operationId: 'remove_team_member',
  method: 'POST',
  path: '/api/v1/team/remove',
  scope: 'manage:org',
  cap: 5,
  description:
    'Remove a member from this workspace and revoke every API key they created in it.\n' +
    'Requires confirm: true; without it nothing changes and the call is refused with a note naming who would be removed and how many keys would stop working.\n' +
    'Use get_team to find the userId. The last owner cannot be removed (400). The person keeps their account and any other workspaces; only their access here ends.',
  annotations: { title: 'Remove team member', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    userId: z.string().min(1).max(100).describe('The userId of the member to remove, as listed by get_team.'),
  }),
  output: removedMember,
  confirm: 'required',
  describe: (ctx, input) => describeRemoval(ctx.db, ctx.workspaceId, input.userId, ctx.caller.userId),
  handler: (ctx, input) => removeMember(ctx.db, ctx.clock, ctx.workspaceId, input.userId),
});
