import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createApiKey, revokeApiKey, type CreatedApiKey } from './auth/apiKeys.js';
import { hashPassword } from './auth/passwords.js';
import type { Clock } from './clock.js';
import { type Config, loadConfig } from './config.js';
import { newId } from './ids.js';
import type { Scope } from './scopes.js';
import { workspaceExists } from './workspace/workspaces.js';
import { endEveryCredential, type EndedCredentials } from './accounts/reset.js';

/** Operator actions behind `sightline admin …`: they act across workspaces, so they are not API operations. */
export class OperatorError extends Error {}

/** The configuration from the environment, as the service reads it; a bad setting is the operator's error, said plainly. */
export function operatorConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    throw new OperatorError((error as Error).message);
  }
}

async function requireWorkspace(db: Kysely<Database>, workspaceId: string): Promise<void> {
  if (!(await workspaceExists(db, workspaceId))) throw new OperatorError(`workspace ${workspaceId} does not exist`);
}

export interface CreatedUser {
  userId: string;
  /** True when the email already had an account: it joins the workspace and keeps its password. */
  existingUser: boolean;
  /** Set when an unverified account was taken over (resetUnverified): what of it was ended. */
  reset?: EndedCredentials;
}

/**
 * Adds a person to a workspace, making their account when the email has none. An account made through a copied invite
 * link is unverified: whoever held the link chose its password, so it is not handed a workspace as it is. With
 * `resetUnverified` the operator takes it over instead: the given password replaces the old one, every credential of
 * the account ends, and it counts as verified from then on.
 */
export async function createUser(
  db: Kysely<Database>,
  clock: Clock,
  input: { email: string; password: string; workspaceId: string; role: 'owner' | 'member'; resetUnverified?: boolean },
): Promise<CreatedUser> {
  await requireWorkspace(db, input.workspaceId);
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new OperatorError('email: must be an email address');
  if (input.password.length < 10) throw new OperatorError('password: must have at least 10 characters');
  const existing = await db.selectFrom('users').select(['id', 'verified_at']).where('email', '=', email).executeTakeFirst();
  const takeOver = existing !== undefined && existing.verified_at === null;
  if (takeOver && input.resetUnverified !== true) {
    throw new OperatorError(
      `${email} has an account that was made through an invite link and never shown to belong to that email's owner: ` +
        'whoever held the link chose its password, so adding it to a workspace could hand the workspace to them. ' +
        'Run again with --reset-unverified to take the account over: its password becomes the one given here, and its sessions, API keys and app connections end.',
    );
  }
  const userId = existing?.id ?? newId('usr');
  const passwordHash = existing === undefined || takeOver ? await hashPassword(input.password) : undefined;
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    let reset: EndedCredentials | undefined;
    if (existing === undefined) {
      await trx.insertInto('users').values({ id: userId, email, password_hash: passwordHash!, created_at: now, verified_at: now }).execute();
    } else if (takeOver) {
      await trx.updateTable('users').set({ password_hash: passwordHash!, verified_at: now }).where('id', '=', userId).execute();
      reset = await endEveryCredential(trx, clock, userId);
    }
    const member = await trx.selectFrom('memberships').select('role').where('workspace_id', '=', input.workspaceId).where('user_id', '=', userId).executeTakeFirst();
    if (member === undefined) {
      await trx.insertInto('memberships').values({ workspace_id: input.workspaceId, user_id: userId, role: input.role, created_at: now }).execute();
    } else {
      await trx.updateTable('memberships').set({ role: input.role }).where('workspace_id', '=', input.workspaceId).where('user_id', '=', userId).execute();
    }
    return { userId, existingUser: existing !== undefined, ...(reset === undefined ? {} : { reset }) };
  });
}

export async function createKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { workspaceId: string; scopes: readonly Scope[]; name?: string },
): Promise<CreatedApiKey> {
  await requireWorkspace(db, input.workspaceId);
  return createApiKey(db, clock, { workspaceId: input.workspaceId, scopes: input.scopes, name: input.name ?? 'operator key' });
}

export async function revokeKey(db: Kysely<Database>, clock: Clock, keyId: string): Promise<void> {
  if (!(await revokeApiKey(db, clock, keyId))) throw new OperatorError(`key ${keyId} does not exist or is already revoked`);
}
