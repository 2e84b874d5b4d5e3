import { z } from 'zod';
import { revokeInvite } from '../../src/team/invites.js';
import { defineTool } from '../define.js';
import { revokedInvite } from './outputs.js';

export default defineTool({
  operationId: 'revoke_team_invite',
  method: 'POST',
  path: '/api/v1/team/revoke',
  scope: 'manage:org',
  cap: 'plan',
  description:
    'Revoke a pending team invite: its accept link stops working at once and its seat is freed. Only pending invites (400 with the reason otherwise); ' +
    'for someone who accepted, use remove_team_member.',
  annotations: { title: 'Revoke team invite', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    inviteId: z.string().min(1).max(100).describe('From get_team.'),
  }),
  output: revokedInvite,
  confirm: 'none',
  handler: (ctx, input) => revokeInvite(ctx.db, ctx.clock, ctx.workspaceId, input.inviteId),
});
