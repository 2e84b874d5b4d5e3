import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JWK, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { sql, type Kysely } from 'kysely';
import { withNamedLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { UnauthorizedError } from '../errors.js';
import { newId } from '../ids.js';
import { randomToken } from '../secrets.js';
import { DEFAULT_PLAN, isPlanName } from '../plans.js';
import { credentialScopes, LAST_USED_RESOLUTION_MS, type Principal } from '../auth/principal.js';

/** Access tokens are short-lived; a client keeps access with its refresh token, which rotates on every use. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
export const SIGNING_ALGORITHM = 'ES256';

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
  /** Null for the key that signs; after a rotation, until when the old key still verifies. */
  retireAt: number | null;
}

/** How long an instance trusts its copy of the key set; a rotation made elsewhere is seen within this. */
export const KEY_SET_REFRESH_MS = 60_000;
/** An unknown `kid` reloads the key set at most this often, so forged kids cannot hammer the database. */
const UNKNOWN_KID_RELOAD_MS = 5_000;
const SIGNING_KEY_LOCK = 'oauth-signing-key';

/**
 * The signing keys every instance shares, kept in the database: new tokens are signed with the newest live key, and a
 * token is verified with the live key its `kid` names, so a token minted by any instance is accepted by all. The
 * private keys are stored sealed (SECRETS_KEY).
 */
export class SigningKeys {
  private cached: { keys: SigningKey[]; loadedAt: number } | undefined;
  private loading: Promise<SigningKey[]> | undefined;
  private lastUnknownReload = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly credentials: CredentialSealer,
  ) {}

  /** The key new tokens are signed with; made once, under a lock, when no key signs yet. */
  async signing(): Promise<SigningKey> {
    const signing = (await this.live()).find((key) => key.retireAt === null);
    if (signing !== undefined) return signing;
    await ensureSigningKey(this.db, this.clock, this.credentials);
    return (await this.reload()).find((key) => key.retireAt === null)!;
  }

  /** The live key a token's header names, or undefined. */
  async verifying(kid: string | undefined): Promise<SigningKey | undefined> {
    if (kid === undefined) return undefined;
    const known = (await this.live()).find((key) => key.kid === kid);
    if (known !== undefined || this.clock.now() - this.lastUnknownReload < UNKNOWN_KID_RELOAD_MS) return known;
    this.lastUnknownReload = this.clock.now();
    return (await this.reload()).find((key) => key.kid === kid);
  }

  /** Every key that still verifies, the signing one first: the JWKS. */
  async live(): Promise<SigningKey[]> {
    if (this.cached !== undefined && this.clock.now() - this.cached.loadedAt < KEY_SET_REFRESH_MS) return this.cached.keys;
    return this.reload();
  }

  private reload(): Promise<SigningKey[]> {
    this.loading ??= loadLiveKeys(this.db, this.clock, this.credentials)
      .then((keys) => {
        this.cached = { keys, loadedAt: this.clock.now() };
        return keys;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}

/** Live keys, newest first; a key being retired sorts after the one that signs. */
async function loadLiveKeys(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer): Promise<SigningKey[]> {
  const rows = await db
    .selectFrom('oauth_signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', clock.now())]))
    .orderBy(sql`retire_at is null`, 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  const live = rows.filter((row, i) => row.retire_at !== null || i === 0);
  return Promise.all(
    live.map(async (row) => {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      return {
        kid: row.kid,
        privateKey: (await importJWK(JSON.parse(credentials.open(row.private_jwk)) as JWK, SIGNING_ALGORITHM)) as CryptoKey,
        publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
        publicJwk,
        retireAt: row.retire_at,
      };
    }),
  );
}

async function newSigningKeyRow(clock: Clock, credentials: CredentialSealer) {
  const pair = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = newId('sk');
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  return {
    kid,
    private_jwk: credentials.seal(JSON.stringify(await exportJWK(pair.privateKey))),
    public_jwk: JSON.stringify(publicJwk),
    created_at: clock.now(),
    retire_at: null,
  };
}

/** Makes the signing key when none signs yet; under the lock, so instances starting together make one. */
async function ensureSigningKey(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer): Promise<void> {
  // Generated outside the transaction: on SQLite the lock holds the one connection for as short a time as possible.
  const candidate = await newSigningKeyRow(clock, credentials);
  await withNamedLock(db, SIGNING_KEY_LOCK, clock.now(), async (trx) => {
    const signing = await trx.selectFrom('oauth_signing_keys').select('kid').where('retire_at', 'is', null).executeTakeFirst();
    if (signing === undefined) await trx.insertInto('oauth_signing_keys').values(candidate).execute();
  });
}

/**
 * A new signing key; the keys signing until now keep verifying until every token they signed has expired, even one
 * signed by an instance that had not yet seen the rotation (its key set is at most KEY_SET_REFRESH_MS old).
 */
export async function rotateSigningKey(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer): Promise<{ kid: string; retiring: string[]; retireAt: number }> {
  const candidate = await newSigningKeyRow(clock, credentials);
  const retireAt = clock.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 + KEY_SET_REFRESH_MS;
  return withNamedLock(db, SIGNING_KEY_LOCK, clock.now(), async (trx) => {
    const retiring = await trx.updateTable('oauth_signing_keys').set({ retire_at: retireAt }).where('retire_at', 'is', null).returning('kid').execute();
    await trx.insertInto('oauth_signing_keys').values(candidate).execute();
    return { kid: candidate.kid, retiring: retiring.map((row) => row.kid), retireAt };
  });
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
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: 'at+jwt', kid: key.kid })
    .setIssuer(issuer)
    .setSubject(grant.userId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(randomToken())
    .sign(key.privateKey);
}

/** Verifies a token's signature with the live key its `kid` names, and its claims; throws when anything is off. */
export async function verifyToken(keys: SigningKeys, token: string, options: JWTVerifyOptions): Promise<JWTPayload> {
  const { payload } = await jwtVerify(
    token,
    async (header) => {
      const key = await keys.verifying(header.kid);
      if (key === undefined) throw new Error('no live signing key has this kid');
      return key.publicKey;
    },
    { algorithms: [SIGNING_ALGORITHM], ...options },
  );
  return payload;
}

/**
 * An access token as a caller: valid signature, issuer, audience (the MCP resource) and lifetime, a grant that
 * is not revoked, and a user who is still a member of the workspace; its scopes are cut to what that member's role
 * holds now.
 */
export async function principalFromAccessToken(
  db: Kysely<Database>,
  clock: Clock,
  keys: SigningKeys,
  expected: { issuer: string; audience: string },
  token: string,
): Promise<Principal> {
  let payload;
  try {
    payload = await verifyToken(keys, token, { issuer: expected.issuer, audience: expected.audience, typ: 'at+jwt', currentDate: new Date(clock.now()) });
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
    .select(['workspaces.plan', 'oauth_grants.last_used_at', 'memberships.role'])
    .where('oauth_grants.id', '=', gid)
    .where('oauth_grants.workspace_id', '=', ws)
    .where('oauth_grants.user_id', '=', sub)
    .where('oauth_grants.revoked_at', 'is', null)
    .executeTakeFirst();
  if (grant === undefined) throw new UnauthorizedError('the access token was revoked');
  const now = clock.now();
  // At most once a minute, as for API keys: a write on every call would serialise an app's reads behind it.
  if (grant.last_used_at === null || now - grant.last_used_at >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', gid).execute();
  }
  return {
    credentialId: `grant:${gid}`,
    via: 'oauth',
    apiKeyId: null,
    grantId: gid,
    userId: sub,
    workspaceId: ws,
    plan: isPlanName(grant.plan) ? grant.plan : DEFAULT_PLAN,
    scopes: credentialScopes(scope, grant.role),
  };
}
