import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import type { Clock } from '../../clock.js';
import { randomToken, sha256Hex } from '../../secrets.js';

/** A dashboard session lasts two weeks from sign-in; signing out ends it at once. */
export const SESSION_TTL_MS = 14 * 86_400_000;

export interface SignedInUser {
  userId: string;
  email: string;
}

// Compared against when the email is unknown, so that a wrong email costs as long as a wrong password.
const UNKNOWN_USER_HASH = hashPassword('no account has this password');

/** The account for these credentials, or undefined; the same time and answer for an unknown email and a wrong password. */
export async function checkCredentials(db: Kysely<Database>, email: string, password: string): Promise<SignedInUser | undefined> {
  const user = await db.selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  const matches = await verifyPassword(password, user?.password_hash ?? (await UNKNOWN_USER_HASH));
  return user !== undefined && matches ? { userId: user.id, email: user.email } : undefined;
}

export async function startSession(db: Kysely<Database>, clock: Clock, userId: string): Promise<string> {
  const token = randomToken();
  const now = clock.now();
  await db.insertInto('sessions').values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS }).execute();
  return token;
}

export async function sessionUser(db: Kysely<Database>, clock: Clock, token: string): Promise<SignedInUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.email'])
    .where('sessions.token_hash', '=', sha256Hex(token))
    .where('sessions.expires_at', '>', clock.now())
    .executeTakeFirst();
  return row === undefined ? undefined : { userId: row.id, email: row.email };
}

export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256Hex(token)).execute();
}

export interface Membership {
  workspaceId: string;
  name: string;
  websiteUrl: string;
  role: 'owner' | 'member';
  plan: string;
  /** IANA name; every time on the dashboard is shown in it. */
  timeZone: string;
}

export async function memberships(db: Kysely<Database>, userId: string): Promise<Membership[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.website_url', 'workspaces.plan', 'workspaces.time_zone', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('workspaces.name')
    .execute();
  return rows.map((r) => ({ workspaceId: r.id, name: r.name, websiteUrl: r.website_url, role: r.role, plan: r.plan, timeZone: r.time_zone }));
}
