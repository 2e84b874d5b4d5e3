import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { Clock } from '../clock.js';
import { randomToken, sha256Hex } from '../secrets.js';

/**
 * A dashboard session lasts at most two weeks from sign-in, ends sooner when unused for the idle timeout
 * (SESSION_IDLE_TIMEOUT_MINUTES), and signing out ends it at once.
 */
export const SESSION_TTL_MS = 14 * 86_400_000;
/** How finely a session's last request is kept: a write on every page view would serialise them. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

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
  await db.insertInto('sessions').values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS, last_seen_at: now }).execute();
  return token;
}

/** The person behind a session cookie, while the session is within its lifetime and has not been idle too long. */
export async function sessionUser(db: Kysely<Database>, clock: Clock, token: string, idleTimeoutMs: number): Promise<SignedInUser | undefined> {
  const now = clock.now();
  const tokenHash = sha256Hex(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.email', 'sessions.last_seen_at'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', now)
    .where('sessions.last_seen_at', '>', now - idleTimeoutMs)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  if (now - row.last_seen_at >= LAST_SEEN_RESOLUTION_MS) await db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
  return { userId: row.id, email: row.email };
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
