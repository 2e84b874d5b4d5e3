import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { loadTeamWorkspace, pendingInvites, seatUsage } from './seats.js';

/** Members, pending invites and seats; accepted, revoked and expired invites are history and not listed. */
export async function readTeam(db: Kysely<Database>, workspaceId: string, now: number) {
  const workspace = await loadTeamWorkspace(db, workspaceId);
  const [members, invites, seats] = await Promise.all([
    db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['memberships.user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
      .where('memberships.workspace_id', '=', workspaceId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.user_id')
      .execute(),
    pendingInvites(db, workspaceId, now).select(['id', 'email', 'role', 'created_at', 'expires_at']).orderBy('created_at').orderBy('id').execute(),
    seatUsage(db, workspaceId, workspace.plan, now),
  ]);
  return {
    members: members.map((m) => ({ userId: m.user_id, email: m.email, role: m.role, joinedAt: new Date(m.created_at).toISOString() })),
    invites: invites.map((i) => ({
      inviteId: i.id,
      email: i.email,
      role: i.role,
      invitedAt: new Date(i.created_at).toISOString(),
      expiresAt: new Date(i.expires_at).toISOString(),
    })),
    seats: { used: seats.used, limit: seats.limit },
  };
}
