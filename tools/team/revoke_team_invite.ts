import { z } from 'zod';
import { revokeInvite } from '../../src/domain/team/invites.js';
import { defineTool } from '../define.js';
import { revokedInvite } from './outputs.js';

export default defineTool({
  operationId: 'revoke_team_invite',
  method: 'POST',
  path: '/api/v1/team/revoke',
  scope: 'manage:org',
  cap: 'plan',
  description:
    'Revoke a pending team invite: its accept link stops working at once and its seat is freed.\n' +
    'Use it when an invite went to the wrong address or is no longer wanted; get_team lists pending invites with their inviteId.\n' +
    'Only pending invites can be revoked: an accepted, already revoked or expired one is refused (400) with the reason. To take away access from someone who accepted, use remove_team_member.',
  annotations: { title: 'Revoke team invite', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    inviteId: z.string().min(1).max(100).describe('The inviteId of a pending invite, as listed by get_team.'),
  }),
  output: revokedInvite,
  confirm: 'none',
  handler: (ctx, input) => revokeInvite(ctx.db, ctx.clock, ctx.workspaceId, input.inviteId),
});
