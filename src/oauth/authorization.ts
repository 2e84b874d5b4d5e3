import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isWellFormedApiKey, revokeApiKeys } from '../auth/apiKeys.js';
import { requireGrantable } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { SafeFetcher } from '../outbound/safeFetch.js';
import { isScope, type Scope } from '../scopes.js';
import { randomToken, sha256Hex } from '../secrets.js';
import { isPlainObject } from '../shared/objects.js';
import { OAuthError, REFRESH_TOKEN_TTL_MS, signAccessToken, ACCESS_TOKEN_TTL_SECONDS, verifyToken, type SigningKey, type SigningKeys } from './tokens.js';

const CODE_TTL_MS = 5 * 60_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_REDIRECT_URIS = 10;

/**
 * Redirect URIs a client may register: https, http on a loopback host (RFC 8252), or a private-use scheme of a known
 * desktop MCP host. Anything else is refused rather than trusted.
 */
export function redirectUriProblem(value: string, privateSchemes: ReadonlySet<string>): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an absolute URI`;
  }
  if (url.hash !== '') return `${value} must not have a fragment`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return undefined;
  if (scheme === 'http') return LOOPBACK_HOSTS.has(url.hostname) ? undefined : `${value}: http is allowed only on a loopback host`;
  return privateSchemes.has(scheme) ? undefined : `${value}: the scheme ${scheme} is not accepted`;
}

/** Loopback redirect URIs match whatever port the client listens on at request time (RFC 8252 §7.3). */
function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = new URL(registered);
  const b = new URL(requested);
  return a.protocol === 'http:' && LOOPBACK_HOSTS.has(a.hostname) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
}

/** RFC 8707 resource: scheme and host lower-cased, no fragment, one trailing slash dropped. */
export function normaliseResource(value: string): string | undefined {
  try {
    const url = new URL(value);
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

export interface RegisteredClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
}

export async function registerClient(db: Kysely<Database>, clock: Clock, body: unknown, privateSchemes: ReadonlySet<string>) {
  const metadata = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((u) => typeof u === 'string')) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris: give 1 to ${MAX_REDIRECT_URIS} redirect URIs`);
  }
  const problems = (uris as string[]).map((u) => redirectUriProblem(u, privateSchemes)).filter((p) => p !== undefined);
  if (problems.length > 0) throw new OAuthError('invalid_redirect_uri', problems.join('; '));
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new OAuthError('invalid_client_metadata', 'token_endpoint_auth_method: only none (public clients with PKCE) is supported');
  const grantTypes = (metadata.grant_types ?? ['authorization_code', 'refresh_token']) as unknown;
  if (!Array.isArray(grantTypes) || !grantTypes.every((g) => g === 'authorization_code' || g === 'refresh_token')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types: only authorization_code and refresh_token');
  }
  // OpenID Connect's application_type (SEP-837 has MCP clients send it). Not being an OpenID provider, this server
  // applies one redirect policy to both kinds, so a loopback or private-use URI is fine for either.
  const applicationType = metadata.application_type;
  if (applicationType !== undefined && applicationType !== 'native' && applicationType !== 'web') throw new OAuthError('invalid_client_metadata', 'application_type: native or web');
  const name = typeof metadata.client_name === 'string' && metadata.client_name.trim() !== '' ? metadata.client_name.trim().slice(0, 100) : 'Unnamed MCP client';
  const clientId = newId('mcpc');
  const now = clock.now();
  await db.insertInto('oauth_clients').values({ client_id: clientId, client_name: name, redirect_uris: JSON.stringify(uris), created_at: now }).execute();
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: name,
    redirect_uris: uris as string[],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(applicationType === undefined ? {} : { application_type: applicationType }),
  };
}

const METADATA_DOCUMENT_TTL_MS = 5 * 60_000;

/**
 * Where clients come from: registered ones from the database, and clients whose client_id is an https URL from
 * the Client ID Metadata Document served there (fetched safely, checked, kept for five minutes).
 */
export class ClientDirectory {
  private readonly documents = new Map<string, { client: RegisteredClient; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly fetcher: SafeFetcher,
    private readonly privateSchemes: ReadonlySet<string>,
  ) {}

  async find(clientId: string): Promise<RegisteredClient | undefined> {
    if (clientId.startsWith('https://')) return this.fromMetadataDocument(clientId);
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
    return row === undefined ? undefined : { clientId: row.client_id, clientName: row.client_name, redirectUris: JSON.parse(row.redirect_uris) as string[] };
  }

  private async fromMetadataDocument(clientId: string): Promise<RegisteredClient> {
    const cached = this.documents.get(clientId);
    if (cached !== undefined && cached.until > this.clock.now()) return cached.client;
    const url = new URL(clientId);
    if (url.pathname === '/' || url.hash !== '') throw new AuthorizePageError('A client_id URL must name a document path and have no fragment.');
    let document: unknown;
    try {
      document = await this.fetcher.json(url);
    } catch (error) {
      throw new AuthorizePageError(`The application's metadata document could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
    const metadata = isPlainObject(document) ? document : {};
    const problem =
      metadata.client_id !== clientId
        ? 'its client_id is not the URL it is served at'
        : 'client_secret' in metadata
          ? 'it carries a client_secret'
          : metadata.token_endpoint_auth_method !== undefined && metadata.token_endpoint_auth_method !== 'none'
            ? 'only public clients (token_endpoint_auth_method none) are supported'
            : !Array.isArray(metadata.redirect_uris) || metadata.redirect_uris.length === 0 || !metadata.redirect_uris.every((u) => typeof u === 'string')
              ? 'it lists no redirect_uris'
              : (metadata.redirect_uris as string[]).map((u) => redirectUriProblem(u, this.privateSchemes)).find((p) => p !== undefined);
    if (problem !== undefined) throw new AuthorizePageError(`The application's metadata document is not acceptable: ${problem}.`);
    const client = {
      clientId,
      clientName: typeof metadata.client_name === 'string' && metadata.client_name.trim() !== '' ? metadata.client_name.trim().slice(0, 100) : url.host,
      redirectUris: metadata.redirect_uris as string[],
    };
    this.documents.set(clientId, { client, until: this.clock.now() + METADATA_DOCUMENT_TTL_MS });
    return client;
  }
}

export interface AuthorizeRequest {
  client: RegisteredClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
}

/** Problems the user must see (the redirect target itself is in doubt): no redirect is made. */
export class AuthorizePageError extends Error {}

/**
 * Validates an authorization request. Errors about the client or its redirect URI are shown on a page; every
 * other error goes back to the client's redirect URI, as RFC 6749 §4.1.2.1 requires.
 */
export async function parseAuthorizeRequest(
  clients: ClientDirectory,
  params: Record<string, unknown>,
  expected: { resource: string },
): Promise<AuthorizeRequest> {
  const text = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
  const clientId = text('client_id');
  const client = clientId === undefined ? undefined : await clients.find(clientId);
  if (client === undefined) throw new AuthorizePageError('This application is not registered here (unknown client_id).');
  const redirectUri = text('redirect_uri') ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (redirectUri === undefined || !client.redirectUris.some((r) => redirectMatches(r, redirectUri))) {
    throw new AuthorizePageError('The redirect_uri is not one this application registered.');
  }
  const state = text('state');
  const fail = (error: string, description: string) => new OAuthRedirectError(redirectUri, state, error, description);
  if (text('response_type') !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
  const challenge = text('code_challenge');
  if (challenge === undefined) throw fail('invalid_request', 'code_challenge is required (PKCE)');
  if (text('code_challenge_method') !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw fail('invalid_request', 'code_challenge must be a base64url SHA-256 value');
  const requestedResource = text('resource');
  const resource = requestedResource === undefined ? expected.resource : normaliseResource(requestedResource);
  if (resource !== expected.resource) throw fail('invalid_target', `resource must be ${expected.resource}`);
  const scopeText = text('scope');
  const requested = scopeText === undefined || scopeText.trim() === '' ? [] : scopeText.trim().split(/\s+/);
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) throw fail('invalid_scope', `unknown scopes: ${unknown.join(' ')}`);
  return { client, redirectUri, state, codeChallenge: challenge, scopes: requested.filter(isScope), resource };
}

export class OAuthRedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | undefined,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export async function issueCode(
  db: Kysely<Database>,
  clock: Clock,
  request: AuthorizeRequest,
  consent: { userId: string; workspaceId: string; scopes: readonly Scope[] },
): Promise<string> {
  await requireGrantable(db, consent);
  const code = randomToken();
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: sha256Hex(code),
      client_id: request.client.clientId,
      user_id: consent.userId,
      workspace_id: consent.workspaceId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      scopes: consent.scopes.join(' '),
      resource: request.resource,
      expires_at: clock.now() + CODE_TTL_MS,
      used_at: null,
      grant_id: null,
    })
    .execute();
  return code;
}

export interface TokenContext {
  db: Kysely<Database>;
  clock: Clock;
  /** The key new tokens are signed with, resolved before any transaction opens. */
  key: SigningKey;
  /** Every live key, to verify a token whichever instance signed it. */
  keys: SigningKeys;
  issuer: string;
  resource: string;
}

async function tokenResponse(ctx: TokenContext, grant: { id: string; client_id: string; user_id: string; workspace_id: string }, scopes: readonly string[]) {
  const refresh = randomToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('oauth_refresh_tokens')
    .values({ token_hash: sha256Hex(refresh), grant_id: grant.id, scopes: scopes.join(' '), created_at: now, expires_at: now + REFRESH_TOKEN_TTL_MS, rotated_at: null })
    .execute();
  const accessToken = await signAccessToken(ctx.key, ctx.issuer, ctx.resource, { grantId: grant.id, clientId: grant.client_id, userId: grant.user_id, workspaceId: grant.workspace_id, scopes }, now);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh, scope: scopes.join(' ') };
}

function field(params: Record<string, unknown>, name: string): string | undefined {
  return typeof params[name] === 'string' ? (params[name] as string) : undefined;
}

async function exchangeCode(ctx: TokenContext, params: Record<string, unknown>) {
  const code = field(params, 'code');
  const clientId = field(params, 'client_id');
  const verifier = field(params, 'code_verifier');
  if (code === undefined || clientId === undefined) throw new OAuthError('invalid_request', 'code and client_id are required');
  if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
  const now = ctx.clock.now();
  const row = await ctx.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', sha256Hex(code)).executeTakeFirst();
  if (row === undefined || row.expires_at <= now || row.client_id !== clientId) throw new OAuthError('invalid_grant', 'the code is unknown, expired or for another client');
  if (field(params, 'redirect_uri') !== row.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (challenge !== row.code_challenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const resource = field(params, 'resource');
  if (resource !== undefined && normaliseResource(resource) !== row.resource) throw new OAuthError('invalid_target', `resource must be ${row.resource}`);
  // Single use: a second redemption fails even when it races the first, and ends what the first one obtained.
  const grant = { id: newId('grt'), client_id: row.client_id, user_id: row.user_id, workspace_id: row.workspace_id };
  const claimed = await ctx.db
    .updateTable('oauth_codes')
    .set({ used_at: now, grant_id: grant.id })
    .where('code_hash', '=', row.code_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) throw new LeakedCredential(row.grant_id, 'the code was already used; the tokens issued for it are revoked');
  await ctx.db.insertInto('oauth_grants').values({ ...grant, scopes: row.scopes, resource: row.resource, created_at: now, revoked_at: null, last_used_at: null, step_up_scopes: null, step_up_at: null }).execute();
  return tokenResponse(ctx, grant, row.scopes.split(' ').filter((s) => s !== ''));
}

/** A used code or a rotated refresh token came back: it leaked. Its grant is revoked outside the failed request's transaction. */
class LeakedCredential extends OAuthError {
  constructor(
    readonly grantId: string | null,
    description: string,
  ) {
    super('invalid_grant', description);
  }
}

export async function revokeGrant(db: Kysely<Database>, clock: Clock, grantId: string): Promise<void> {
  await db.updateTable('oauth_grants').set({ revoked_at: clock.now() }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
}

/** The token endpoint: each grant type in one transaction; a detected refresh-token reuse revokes the grant after it. */
export async function tokenRequest(db: Kysely<Database>, settings: Omit<TokenContext, 'db'>, params: Record<string, unknown>) {
  try {
    return await db.transaction().execute(async (trx) => {
      const ctx = { ...settings, db: trx };
      if (params.grant_type === 'authorization_code') return exchangeCode(ctx, params);
      if (params.grant_type === 'refresh_token') return refreshTokens(ctx, params);
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    });
  } catch (error) {
    if (error instanceof LeakedCredential && error.grantId !== null) await revokeGrant(db, settings.clock, error.grantId);
    throw error;
  }
}

/**
 * A refresh cannot widen a grant (RFC 6749 §6), yet some clients refresh first when a resource answers
 * insufficient_scope, get the same narrow token back and give up: the MCP TypeScript SDK up to 1.32 does
 * (modelcontextprotocol/typescript-sdk#2255). So for this long after a step-up challenge, a refresh of that grant is
 * refused as invalid_grant, on which such a client drops its tokens and sends the user through authorization with
 * the larger scope. Later refreshes work as before.
 */
export const STEP_UP_WINDOW_MS = 120_000;

/**
 * From this protocol version on, a client answers insufficient_scope by authorizing again for the scopes it held and
 * the challenged ones, without a refresh (the 2026-07-28 step-up flow; the v2 TypeScript client, SEP-2350). The v1
 * SDK cannot speak it, so a request made in it proves a client that needs no refusal.
 */
const FIRST_VERSION_THAT_REAUTHORIZES = '2026-07-28';

function reauthorizesOnStepUp(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion >= FIRST_VERSION_THAT_REAUTHORIZES;
}

/**
 * Remembers the insufficient_scope challenge just sent to a grant's token, for every instance to see, unless the
 * challenged request's MCP-Protocol-Version shows a client that re-authorizes by itself: its refreshes stay untouched.
 */
export async function recordStepUpChallenge(db: Kysely<Database>, clock: Clock, grantId: string, scopes: readonly string[], protocolVersion: string | undefined): Promise<void> {
  if (reauthorizesOnStepUp(protocolVersion)) return;
  await db.updateTable('oauth_grants').set({ step_up_scopes: scopes.join(' '), step_up_at: clock.now() }).where('id', '=', grantId).execute();
}

function scopesAwaitingStepUp(grant: { step_up_scopes: string | null; step_up_at: number | null }, granted: readonly string[], now: number): string[] {
  if (grant.step_up_scopes === null || grant.step_up_at === null || now - grant.step_up_at >= STEP_UP_WINDOW_MS) return [];
  return grant.step_up_scopes.split(' ').filter((scope) => scope !== '' && !granted.includes(scope));
}

/** Rotates a refresh token. Presenting one that was already rotated means it leaked: the whole grant is revoked. */
async function refreshTokens(ctx: TokenContext, params: Record<string, unknown>) {
  const token = field(params, 'refresh_token');
  const clientId = field(params, 'client_id');
  if (token === undefined || clientId === undefined) throw new OAuthError('invalid_request', 'refresh_token and client_id are required');
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('oauth_refresh_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_refresh_tokens.grant_id')
    .select(['oauth_refresh_tokens.token_hash', 'oauth_refresh_tokens.scopes', 'oauth_refresh_tokens.expires_at', 'oauth_refresh_tokens.rotated_at'])
    .select(['oauth_grants.id', 'oauth_grants.client_id', 'oauth_grants.user_id', 'oauth_grants.workspace_id', 'oauth_grants.revoked_at'])
    .select(['oauth_grants.step_up_scopes', 'oauth_grants.step_up_at'])
    .where('oauth_refresh_tokens.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (row === undefined || row.client_id !== clientId || row.revoked_at !== null || row.expires_at <= now) {
    throw new OAuthError('invalid_grant', 'the refresh token is unknown, expired, revoked or for another client');
  }
  const reused = new LeakedCredential(row.id, 'the refresh token was already used; every token of its grant is revoked');
  if (row.rotated_at !== null) throw reused;
  // Refused before the rotation, so the refresh token still works once the window has passed.
  const granted = row.scopes.split(' ').filter((s) => s !== '');
  const awaited = scopesAwaitingStepUp(row, granted, now);
  if (awaited.length > 0) {
    throw new OAuthError('invalid_grant', `this grant was just asked for ${awaited.join(' ')}, which a refresh cannot add: authorize again with the larger scope`);
  }
  const rotated = await ctx.db.updateTable('oauth_refresh_tokens').set({ rotated_at: now }).where('token_hash', '=', row.token_hash).where('rotated_at', 'is', null).executeTakeFirst();
  if (rotated.numUpdatedRows === 0n) throw reused;
  const asked = field(params, 'scope');
  // A refresh may narrow the scopes, never widen them.
  const scopes = asked === undefined ? granted : asked.split(/\s+/).filter((s) => s !== '');
  const wider = scopes.filter((s) => !granted.includes(s));
  if (wider.length > 0) throw new OAuthError('invalid_scope', `not granted: ${wider.join(' ')}`);
  return tokenResponse(ctx, row, scopes);
}

/** RFC 7009: revoking a refresh token, or an access token, ends its whole grant. Unknown tokens are not an error. */
export async function revokeToken(ctx: TokenContext, token: string): Promise<void> {
  const now = ctx.clock.now();
  // The device login hands out API keys as access tokens; whoever holds one may end it (the CLI's logout does).
  if (isWellFormedApiKey(token)) {
    await revokeApiKeys(ctx.db, ctx.clock, { key: token });
    return;
  }
  const refresh = await ctx.db.selectFrom('oauth_refresh_tokens').select('grant_id').where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
  let grantId = refresh?.grant_id;
  if (grantId === undefined) {
    try {
      const payload = await verifyToken(ctx.keys, token, { issuer: ctx.issuer, currentDate: new Date(now) });
      grantId = typeof payload.gid === 'string' ? payload.gid : undefined;
    } catch {
      return;
    }
  }
  if (grantId !== undefined) await revokeGrant(ctx.db, ctx.clock, grantId);
}
