import { z } from 'zod';
import { readTeam } from '../../src/team/readTeam.js';
import { defineTool } from '../define.js';
import { team } from './outputs.js';

export default defineTool({
  operationId: 'get_team',
  method: 'GET',
  path: '/api/v1/team',
  scope: 'manage:org',
  cap: 'plan',
  description:
    "List the workspace's team: members, pending invites and seats used (members + pending invites) against the plan's limit. " +
    'Use it before inviting, and to find the userId remove_team_member or the inviteId revoke_team_invite takes.',
  annotations: { title: 'Get team', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: team,
  confirm: 'none',
  handler: (ctx) => readTeam(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
