import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { revokeApiKeys } from '../auth/apiKeys.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { counted, loadTeamWorkspace } from './seats.js';

/** Keys a member created in this workspace that still authenticate. */
function liveKeysOf(db: Kysely<Database>, workspaceId: string, userId: string) {
  return db.selectFrom('api_keys').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).where('revoked_at', 'is', null);
}

/** The checks a removal makes, shared by the refusal note and the removal itself. */
async function planRemoval(db: Kysely<Database>, workspaceId: string, userId: string) {
  const member = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'memberships.role'])
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (member === undefined) throw new NotFoundError('member', userId);
  if (member.role === 'owner') {
    const owners = await db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    // Without an owner nobody could approve owner-only changes or manage the team any more.
    if (Number(owners.n) <= 1) {
      throw BadInputError.field('userId', `${userId} (${member.email}) is the last owner of this workspace and cannot be removed; add another owner first (invite_team_member with role owner)`);
    }
  }
  const keys = await liveKeysOf(db, workspaceId, userId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { email: member.email, role: member.role, liveKeys: Number(keys.n) };
}

export async function describeRemoval(db: Kysely<Database>, workspaceId: string, userId: string, callerUserId: string | null): Promise<string> {
  const [plan, workspace] = await Promise.all([planRemoval(db, workspaceId, userId), loadTeamWorkspace(db, workspaceId)]);
  const who = `${plan.email} (${plan.role}) from "${workspace.name}"`;
  const keys =
    plan.liveKeys === 0
      ? `This would remove ${who}; they have no live API keys in it.`
      : `This would remove ${who} and revoke the ${counted(plan.liveKeys, 'API key')} they created in it.`;
  return callerUserId === userId ? `${keys} That includes the key making this call.` : keys;
}

/** Removes the membership and revokes the member's keys here; the account itself and its other workspaces are untouched. */
export async function removeMember(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string) {
  // Two owners removing each other at once must not both pass the last-owner check.
  await lockWorkspace(db, workspaceId);
  await planRemoval(db, workspaceId, userId);
  await db.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  const revokedKeys = await revokeApiKeys(db, clock, { workspaceId, userId });
  return { userId, removed: true as const, revokedKeys };
}
