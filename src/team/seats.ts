import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DEFAULT_PLAN, isPlanName, PLANS, type PlanName } from '../plans.js';

export interface TeamWorkspace {
  name: string;
  websiteUrl: string;
  plan: PlanName;
}

export async function loadTeamWorkspace(db: Kysely<Database>, workspaceId: string): Promise<TeamWorkspace> {
  const row = await db.selectFrom('workspaces').select(['name', 'website_url', 'plan']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
  // A plan name this build no longer knows falls back as authentication does, so limits never come out undefined.
  return { name: row.name, websiteUrl: row.website_url, plan: isPlanName(row.plan) ? row.plan : DEFAULT_PLAN };
}

/** Invites whose link still works: neither accepted nor revoked, and not yet expired at `now`. */
export function pendingInvites(db: Kysely<Database>, workspaceId: string, now: number) {
  return db
    .selectFrom('team_invites')
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
}

export interface SeatUsage {
  members: number;
  pendingInvites: number;
  /** Members plus pending invites: an invite holds its seat until it is accepted, revoked or expires. */
  used: number;
  limit: number;
}

export async function seatUsage(db: Kysely<Database>, workspaceId: string, plan: PlanName, now: number): Promise<SeatUsage> {
  const [members, invites] = await Promise.all([
    db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
    pendingInvites(db, workspaceId, now)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  // PostgreSQL returns count(*) as a bigint string.
  const memberCount = Number(members.n);
  const inviteCount = Number(invites.n);
  return { members: memberCount, pendingInvites: inviteCount, used: memberCount + inviteCount, limit: PLANS[plan].seats };
}

/** `1 member`, `2 members`: notes and errors are read by people and agents, so counts are spelled out. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
