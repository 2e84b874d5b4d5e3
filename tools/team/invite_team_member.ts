import { z } from 'zod';
import { createInvite, describeInvite } from '../../src/team/invites.js';
import { defineTool } from '../define.js';
import { createdInvite } from './outputs.js';

export default defineTool({
  operationId: 'invite_team_member',
  method: 'POST',
  path: '/api/v1/team/invite',
  scope: 'manage:org',
  cap: 5,
  description:
    'Invite a person to this workspace by email. No email is sent: share the acceptUrl with the invitee; it is valid for 7 days. ' +
    'A new invite to an email with a pending one replaces it. Refused (400) when the email is already a member or no seat is free (get_team).',
  annotations: { title: 'Invite team member', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    email: z.email().describe('They sign in with it.'),
    role: z.enum(['owner', 'member']).default('member').describe('owner: also manages the team and approves owner-only changes.'),
  }),
  output: createdInvite,
  confirm: 'dry-run',
  describe: (ctx, input) => describeInvite(ctx.db, ctx.clock, ctx.workspaceId, { ...input, invitedBy: ctx.caller.userId }),
  handler: (ctx, input) => createInvite(ctx.db, ctx.clock, ctx.publicUrl, ctx.workspaceId, { ...input, invitedBy: ctx.caller.userId }),
});
