import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ForbiddenError } from '../errors.js';
import { ALL_SCOPES, type Scope } from '../scopes.js';

/**
 * The one rule of what a person may hand out. A role holds a set of scopes; whatever a person grants (an OAuth
 * consent, a device approval, an API key, an invite) stays within the role they hold in that workspace, and a
 * credential made for a person works only as far as the role they hold when it is used.
 */
export type Role = 'owner' | 'member';

const WITHHELD: Record<Role, readonly Scope[]> = {
  owner: [],
  member: ['manage:org'],
};

export function scopesOfRole(role: Role): readonly Scope[] {
  return ALL_SCOPES.filter((scope) => !WITHHELD[role].includes(scope));
}

/** The scopes some role does not hold: a call that needs one reads the person's role afresh. */
export const ROLE_BOUND_SCOPES: readonly Scope[] = [...new Set(Object.values(WITHHELD).flat())];

/** What of `scopes` a person in `role` may grant, and what they may not; no role (not a member) grants nothing. */
export function splitByRole(role: Role | undefined, scopes: Iterable<Scope>): { grantable: Scope[]; refused: Scope[] } {
  const held = role === undefined ? [] : scopesOfRole(role);
  const grantable: Scope[] = [];
  const refused: Scope[] = [];
  for (const scope of scopes) (held.includes(scope) ? grantable : refused).push(scope);
  return { grantable, refused };
}

/** A person may give another a role only when it holds nothing theirs does not. */
export function mayAssignRole(granter: Role, role: Role): boolean {
  return splitByRole(granter, scopesOfRole(role)).refused.length === 0;
}

/** The person's role in the workspace as it stands now, or undefined when they are not a member. */
export async function currentRole(db: Kysely<Database>, workspaceId: string, userId: string): Promise<Role | undefined> {
  const row = await db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

/** Why a grant is refused, in the words the consent page, the keys page and the API all use. */
export function refusalText(role: Role | undefined, refused: readonly Scope[]): string {
  const what = refused.join(', ');
  return role === undefined
    ? `you are not a member of this workspace, so you cannot grant ${what}`
    : `as ${role === 'owner' ? 'an owner' : 'a member'} of this workspace you cannot grant ${what}; only an owner can`;
}

/**
 * Every path that mints a credential for a person calls this, with the role read inside the same transaction as the
 * mint: the rule holds even when a form was forged or the role changed since the page was shown.
 */
export async function requireGrantable(db: Kysely<Database>, grant: { workspaceId: string; userId: string; scopes: readonly Scope[] }): Promise<void> {
  const role = await currentRole(db, grant.workspaceId, grant.userId);
  const { refused } = splitByRole(role, grant.scopes);
  if (refused.length > 0) throw new ForbiddenError(refusalText(role, refused));
}
