import type { PlanName } from '../plans.js';
import { isScope, type Scope } from '../scopes.js';
import { splitByRole, type Role } from './roles.js';

/** Who is calling: always bound to exactly one workspace. */
export interface Principal {
  /** The identity the rate limits count against. */
  credentialId: string;
  /** An OAuth token can step up (re-authorise with more scopes); an API key cannot; `dashboard` is a signed-in person's page. */
  via: 'api_key' | 'oauth' | 'dashboard';
  apiKeyId: string | null;
  /** The OAuth grant behind a token; null for API keys. */
  grantId: string | null;
  userId: string | null;
  workspaceId: string;
  plan: PlanName;
  scopes: ReadonlySet<Scope>;
}

/** How finely a credential's last use is kept: API keys and OAuth grants alike. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * What a credential may do now: the scopes it was granted, less any its person's role no longer holds. `null` is a
 * credential with no person (the operator's keys), which keeps what it was given.
 */
export function credentialScopes(granted: string, role: Role | null): ReadonlySet<Scope> {
  const scopes = granted.split(' ').filter(isScope);
  return new Set(role === null ? scopes : splitByRole(role, scopes).grantable);
}
