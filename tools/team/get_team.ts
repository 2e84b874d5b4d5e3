import { z } from 'zod';
import { readTeam } from '../../src/domain/team/readTeam.js';
import { defineTool } from '../define.js';
import { team } from './outputs.js';

export default defineTool({
  operationId: 'get_team',
  method: 'GET',
  path: '/api/v1/team',
  scope: 'manage:org',
  cap: 'plan',
  description:
    "List the workspace's team: members, pending invites and seats used against the plan's limit.\n" +
    'Use it before inviting (to see whether a seat is free) and to find the userId that remove_team_member takes or the inviteId that revoke_team_invite takes.\n' +
    'Seats used = members + pending invites. Accepted, revoked and expired invites are not listed.',
  annotations: { title: 'Get team', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: team,
  confirm: 'none',
  handler: (ctx) => readTeam(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
