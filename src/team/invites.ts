import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, ForbiddenError, NotFoundError } from '../errors.js';
import { currentRole, mayAssignRole } from '../auth/roles.js';
import { hashPassword } from '../auth/passwords.js';
import { newId } from '../ids.js';
import { randomToken, sha256Hex } from '../secrets.js';
import { DAY_MS } from '../shared/time.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { counted, loadTeamWorkspace, pendingInvites, seatUsage, type TeamWorkspace } from './seats.js';

export const INVITE_VALID_DAYS = 7;

export type InviteRole = 'owner' | 'member';

export interface InviteRequest {
  email: string;
  role: InviteRole;
  /** The person inviting; null for a key with no person (the operator's), which may give any role. */
  invitedBy: string | null;
}

interface InvitePlan {
  email: string;
  role: InviteRole;
  workspace: TeamWorkspace;
  /** The pending invite for the same email that the new one replaces. */
  replaces: { id: string; createdAt: number } | undefined;
  seatsAfter: number;
  seatLimit: number;
}

/** Every check a confirmed invite makes, shared by the dry run so that both refuse the same things with the same words. */
async function planInvite(db: Kysely<Database>, workspaceId: string, now: number, request: InviteRequest): Promise<InvitePlan> {
  // Sign-in emails are stored lower-cased (see createUser), so invites are too, or the member check would miss.
  const email = request.email.toLowerCase();
  const workspace = await loadTeamWorkspace(db, workspaceId);
  if (request.invitedBy !== null) {
    const role = await currentRole(db, workspaceId, request.invitedBy);
    if (role === undefined || !mayAssignRole(role, request.role)) {
      throw new ForbiddenError(`you cannot invite someone as ${request.role}: it holds more than your role (${role ?? 'none'}) in this workspace`);
    }
  }
  const member = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.role')
    .where('memberships.workspace_id', '=', workspaceId)
    .where('users.email', '=', email)
    .executeTakeFirst();
  if (member !== undefined) throw BadInputError.field('email', `${email} is already a member of "${workspace.name}" (as ${member.role})`);

  const [previous, seats] = await Promise.all([
    pendingInvites(db, workspaceId, now).select(['id', 'created_at']).where('email', '=', email).orderBy('created_at', 'desc').executeTakeFirst(),
    seatUsage(db, workspaceId, workspace.plan, now),
  ]);
  // A replacement takes over the seat its predecessor holds.
  const seatsAfter = previous === undefined ? seats.used + 1 : seats.used;
  if (seatsAfter > seats.limit) {
    throw BadInputError.field(
      'email',
      `no seat left for ${email}: the ${workspace.plan} plan allows ${counted(seats.limit, 'seat')} and ${seats.used} ${seats.used === 1 ? 'is' : 'are'} taken ` +
        `(${counted(seats.members, 'member')}, ${counted(seats.pendingInvites, 'pending invite')}); revoke a pending invite or remove a member first`,
    );
  }
  return {
    email,
    role: request.role,
    workspace,
    replaces: previous === undefined ? undefined : { id: previous.id, createdAt: previous.created_at },
    seatsAfter,
    seatLimit: seats.limit,
  };
}

export async function describeInvite(db: Kysely<Database>, clock: Clock, workspaceId: string, request: InviteRequest): Promise<string> {
  const plan = await planInvite(db, workspaceId, clock.now(), request);
  const replacing =
    plan.replaces === undefined
      ? ''
      : ` It replaces the pending invite ${plan.replaces.id} of ${new Date(plan.replaces.createdAt).toISOString()}, whose link stops working.`;
  return (
    `Would invite ${plan.email} as ${plan.role} of "${plan.workspace.name}" (${plan.workspace.websiteUrl}); ` +
    `the accept link is valid for ${INVITE_VALID_DAYS} days.${replacing} Seats in use afterwards: ${plan.seatsAfter} of ${plan.seatLimit}. ` +
    'Repeat with confirm: true to create it.'
  );
}

export async function createInvite(db: Kysely<Database>, clock: Clock, publicUrl: string, workspaceId: string, request: InviteRequest) {
  const now = clock.now();
  await lockWorkspace(db, workspaceId);
  const plan = await planInvite(db, workspaceId, now, request);
  if (plan.replaces !== undefined) {
    await db
      .updateTable('team_invites')
      .set({ revoked_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', plan.email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
  }
  // The token only ever travels in the accept link; the table keeps its hash.
  const token = randomToken();
  const inviteId = newId('inv');
  const expiresAt = now + INVITE_VALID_DAYS * DAY_MS;
  await db
    .insertInto('team_invites')
    .values({
      id: inviteId,
      workspace_id: workspaceId,
      email: plan.email,
      role: plan.role,
      token_hash: sha256Hex(token),
      created_at: now,
      expires_at: expiresAt,
      accepted_at: null,
      revoked_at: null,
    })
    .execute();
  return { inviteId, email: plan.email, role: plan.role, expiresAt: new Date(expiresAt).toISOString(), acceptUrl: `${publicUrl}/invite/${token}` };
}

/** Only a pending invite can be revoked; anything else is refused with the reason, so the caller knows where it stands. */
export async function revokeInvite(db: Kysely<Database>, clock: Clock, workspaceId: string, inviteId: string) {
  const now = clock.now();
  const invite = await db
    .selectFrom('team_invites')
    .select(['email', 'accepted_at', 'revoked_at', 'expires_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
  if (invite === undefined) throw new NotFoundError('invite', inviteId);
  const at = (ms: number) => new Date(ms).toISOString();
  if (invite.accepted_at !== null) {
    throw BadInputError.field('inviteId', `invite ${inviteId} was already accepted on ${at(invite.accepted_at)}; remove the member with remove_team_member instead`);
  }
  if (invite.revoked_at !== null) throw BadInputError.field('inviteId', `invite ${inviteId} was already revoked on ${at(invite.revoked_at)}`);
  if (invite.expires_at <= now) throw BadInputError.field('inviteId', `invite ${inviteId} expired on ${at(invite.expires_at)}; its link no longer works`);
  await db.updateTable('team_invites').set({ revoked_at: now }).where('workspace_id', '=', workspaceId).where('id', '=', inviteId).execute();
  return { inviteId, revoked: true as const };
}

export interface OpenInvite {
  inviteId: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: InviteRole;
  /** True when the email already has an account: accepting then signs in to it. Never shown on the page. */
  existingAccount: boolean;
}

/** The pending invite behind an accept link, or undefined when the link is unknown, used, revoked or expired. */
export async function openInvite(db: Kysely<Database>, clock: Clock, token: string): Promise<OpenInvite | undefined> {
  const invite = await db
    .selectFrom('team_invites')
    .innerJoin('workspaces', 'workspaces.id', 'team_invites.workspace_id')
    .select(['team_invites.id', 'team_invites.workspace_id', 'team_invites.email', 'team_invites.role', 'workspaces.name'])
    .where('team_invites.token_hash', '=', sha256Hex(token))
    .where('team_invites.accepted_at', 'is', null)
    .where('team_invites.revoked_at', 'is', null)
    .where('team_invites.expires_at', '>', clock.now())
    .executeTakeFirst();
  if (invite === undefined) return undefined;
  const account = await db.selectFrom('users').select('id').where('email', '=', invite.email).executeTakeFirst();
  return {
    inviteId: invite.id,
    workspaceId: invite.workspace_id,
    workspaceName: invite.name,
    email: invite.email,
    role: invite.role,
    existingAccount: account !== undefined,
  };
}

/**
 * Who accepts: an account already signed in (or whose password was just checked) as the invited email, or a new
 * account for it with this password.
 */
export type InviteAcceptor = { userId: string } | { newPassword: string };

/**
 * Accepts an invite; the membership and the used invite are written together. A new account is unverified
 * (verified_at null): the accept link is copied by the inviter, so having it proves nothing about who holds the email.
 * Returns the user id.
 */
export async function acceptInvite(db: Kysely<Database>, clock: Clock, invite: OpenInvite, as: InviteAcceptor): Promise<string> {
  const now = clock.now();
  let userId: string;
  if ('userId' in as) {
    const user = await db.selectFrom('users').select('email').where('id', '=', as.userId).executeTakeFirst();
    if (user?.email !== invite.email) throw new ForbiddenError(`this invite is for ${invite.email}; sign in with that email to accept it`);
    userId = as.userId;
  } else {
    if (as.newPassword.length < 10) throw BadInputError.field('password', 'must have at least 10 characters');
    const existing = await db.selectFrom('users').select('id').where('email', '=', invite.email).executeTakeFirst();
    if (existing !== undefined) throw BadInputError.field('password', 'an account for this email was made in the meantime; sign in with its password');
    userId = newId('usr');
    await db
      .insertInto('users')
      .values({ id: userId, email: invite.email, password_hash: await hashPassword(as.newPassword), created_at: now, verified_at: null })
      .execute();
  }
  const used = await db
    .updateTable('team_invites')
    .set({ accepted_at: now })
    .where('id', '=', invite.inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (used.numUpdatedRows === 0n) throw BadInputError.field('invite', 'was used or revoked in the meantime');
  const member = await db.selectFrom('memberships').select('role').where('workspace_id', '=', invite.workspaceId).where('user_id', '=', userId).executeTakeFirst();
  if (member === undefined) {
    await db.insertInto('memberships').values({ workspace_id: invite.workspaceId, user_id: userId, role: invite.role, created_at: now }).execute();
  }
  return userId;
}
