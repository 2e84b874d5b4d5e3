import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type CryptoKey } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { UnauthorizedError } from '../errors.js';
import { newId } from '../ids.js';
import { randomToken } from '../secrets.js';
import { DEFAULT_PLAN, isPlanName } from '../plans.js';
import type { Principal } from '../pipeline/principal.js';
import { isScope, type Scope } from '../scopes.js';

/** Access tokens are short-lived; a client keeps access with its refresh token, which rotates on every use. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
const ALGORITHM = 'ES256';

/** An OAuth error in RFC 6749's shape: `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}


export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/** The signing key, made once and kept in the database so that tokens outlive a restart and every instance agrees. */
export async function loadSigningKey(db: Kysely<Database>, clock: Clock): Promise<SigningKey> {
  let row = await db.selectFrom('oauth_signing_keys').selectAll().orderBy('created_at', 'desc').executeTakeFirst();
  if (row === undefined) {
    const pair = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = newId('sk');
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: ALGORITHM, use: 'sig' };
    const candidate = { kid, private_jwk: JSON.stringify(await exportJWK(pair.privateKey)), public_jwk: JSON.stringify(publicJwk), created_at: clock.now() };
    await db.insertInto('oauth_signing_keys').values(candidate).onConflict((oc) => oc.doNothing()).execute();
    row = await db.selectFrom('oauth_signing_keys').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  }
  const publicJwk = JSON.parse(row.public_jwk) as JWK;
  return {
    kid: row.kid,
    privateKey: (await importJWK(JSON.parse(row.private_jwk) as JWK, ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, ALGORITHM)) as CryptoKey,
    publicJwk,
  };
}

export interface GrantClaims {
  grantId: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scopes: readonly string[];
}

export async function signAccessToken(key: SigningKey, issuer: string, audience: string, grant: GrantClaims, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({ client_id: grant.clientId, scope: grant.scopes.join(' '), ws: grant.workspaceId, gid: grant.grantId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'at+jwt', kid: key.kid })
    .setIssuer(issuer)
    .setSubject(grant.userId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(randomToken())
    .sign(key.privateKey);
}

/**
 * An access token as a caller: valid signature, issuer, audience (the MCP resource) and lifetime, a grant that
 * is not revoked, and a user who is still a member of the workspace.
 */
export async function principalFromAccessToken(
  db: Kysely<Database>,
  clock: Clock,
  key: SigningKey,
  expected: { issuer: string; audience: string },
  token: string,
): Promise<Principal> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key.publicKey, {
      issuer: expected.issuer,
      audience: expected.audience,
      typ: 'at+jwt',
      algorithms: [ALGORITHM],
      currentDate: new Date(clock.now()),
    }));
  } catch {
    throw new UnauthorizedError('invalid or expired access token');
  }
  const { gid, ws, sub, scope } = payload;
  if (typeof gid !== 'string' || typeof ws !== 'string' || typeof sub !== 'string' || typeof scope !== 'string') {
    throw new UnauthorizedError('invalid access token');
  }
  const grant = await db
    .selectFrom('oauth_grants')
    .innerJoin('memberships', (join) => join.onRef('memberships.workspace_id', '=', 'oauth_grants.workspace_id').onRef('memberships.user_id', '=', 'oauth_grants.user_id'))
    .innerJoin('workspaces', 'workspaces.id', 'oauth_grants.workspace_id')
    .select(['workspaces.plan'])
    .where('oauth_grants.id', '=', gid)
    .where('oauth_grants.workspace_id', '=', ws)
    .where('oauth_grants.user_id', '=', sub)
    .where('oauth_grants.revoked_at', 'is', null)
    .executeTakeFirst();
  if (grant === undefined) throw new UnauthorizedError('the access token was revoked');
  return {
    credentialId: `grant:${gid}`,
    via: 'oauth',
    apiKeyId: null,
    userId: sub,
    workspaceId: ws,
    plan: isPlanName(grant.plan) ? grant.plan : DEFAULT_PLAN,
    scopes: new Set(scope.split(' ').filter(isScope) as Scope[]),
  };
}
