import { z } from 'zod';
import { createInvite, describeInvite } from '../../src/domain/team/invites.js';
import { defineTool } from '../define.js';
import { createdInvite } from './outputs.js';

export default defineTool({
  operationId: 'invite_team_member',
  method: 'POST',
  path: '/api/v1/team/invite',
  scope: 'manage:org',
  cap: 5,
  description:
    'Invite a person to this workspace by email and get the link they accept it with.\n' +
    'Dry run by default: without confirm: true nothing is created and the answer says what would happen; repeat with confirm: true to create the invite.\n' +
    'No email is sent: share the returned acceptUrl with the invitee yourself. The link is valid for 7 days. Inviting an email that has a pending invite replaces it (the old link stops working).\n' +
    'Refused (400) when the email is already a member or no seat is free (seats = members + pending invites, limited by the plan; see get_team).',
  annotations: { title: 'Invite team member', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    email: z.email().describe('Email address of the person to invite; they sign in with it.'),
    role: z.enum(['owner', 'member']).default('member').describe('owner: can manage the team and approve owner-only changes. member (default): everything else.'),
  }),
  output: createdInvite,
  confirm: 'dry-run',
  describe: (ctx, input) => describeInvite(ctx.db, ctx.clock, ctx.workspaceId, input),
  handler: (ctx, input) => createInvite(ctx.db, ctx.clock, ctx.publicUrl, ctx.workspaceId, input),
});
