import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { noteBrokenConnection } from '../../changes/connections.js';
import { inTransaction } from '../../changes/record.js';
import type { CdnSettings } from '../../config.js';
import type { CredentialSealer } from '../../credentials/sealed.js';
import { BadInputError } from '../../errors.js';
import { randomToken, sha256Hex } from '../../secrets.js';
import { pastedApiToken, pkceChallenge, pkceVerifier, type CloudflareClient, type CloudflareOAuthClient, type CloudflareTokens, type CloudflareZone } from '../../integrations/cloudflare/cdn.js';
import { CloudflareAuthError, CloudflareError } from './errors.js';
import { CLOUDFLARE } from '../../integrations/cloudflare/provider.js';
import { nameList, notConfigured } from '../../integrations/kit/declaration.js';

/** Cloudflare for the handlers and jobs: the client, and the operator's OAuth client when one is registered. */
export interface CdnService {
  client: CloudflareClient;
  /** Undefined without CDN_CLIENT_ID and CDN_CLIENT_SECRET: owners paste an API token instead. */
  oauth: CloudflareOAuthClient | undefined;
  scopes: readonly string[];
}

export function cdnService(settings: CdnSettings, clock: Clock): CdnService {
  return { client: CLOUDFLARE.create(settings, clock), oauth: settings.oauth, scopes: settings.scopes };
}

/** Where Cloudflare sends the owner back; the operator registers PUBLIC_URL + this path as the OAuth client's redirect URL. */
export const CDN_CALLBACK_PATH = '/integrations/cdn/callback';

export const cdnCallbackUrl = (publicUrl: string) => `${publicUrl}${CDN_CALLBACK_PATH}`;

/** The owner has this long to finish Cloudflare's consent screen. */
export const CDN_STATE_TTL_MS = 15 * 60_000;

export const CDN_OAUTH_SETTINGS = nameList(CLOUDFLARE.turnedOnBy);

/** Refreshed this long before Cloudflare's expiry, so that a token does not lapse between the check and the call. */
const EXPIRY_MARGIN_MS = 60_000;

export const NOT_CONNECTED = 'this workspace is not connected to Cloudflare: call get_cdn_connect_url and open the URL, or paste an API token on the Settings page of the dashboard';

/** A connection's zone columns when no zone is selected: nothing planned, synced or due. */
const NO_ZONE = {
  zone_id: null,
  zone_name: null,
  zone_selected_at: null,
  retention_seconds: null,
  max_duration_seconds: null,
  max_page_size: null,
  backfill_since: null,
  backfill_until: null,
  window_ms: null,
  synced_until: null,
  next_poll_at: null,
  last_sync_at: null,
} as const;

/**
 * Starts an OAuth authorization for the workspace: a one-time state stored hashed with its expiry, and the PKCE
 * verifier stored sealed until the callback exchanges the code. Expired authorizations of the workspace are dropped.
 */
export async function beginCdnAuthorization(
  db: Kysely<Database>,
  clock: Clock,
  cdn: CdnService,
  sealer: CredentialSealer,
  publicUrl: string,
  workspaceId: string,
): Promise<{ url: string; expiresAt: number; redirectUri: string; scopes: readonly string[] }> {
  if (cdn.oauth === undefined) {
    throw new BadInputError(
      `${notConfigured(CLOUDFLARE, ' on this server')} (a Cloudflare OAuth client whose redirect URL is ${cdnCallbackUrl(publicUrl)}); meanwhile the owner can paste an API token on the Settings page of the dashboard`,
    );
  }
  const now = clock.now();
  const state = randomToken();
  const verifier = pkceVerifier();
  const expiresAt = now + CDN_STATE_TTL_MS;
  await db.deleteFrom('cdn_authorizations').where('workspace_id', '=', workspaceId).where('expires_at', '<=', now).execute();
  await db
    .insertInto('cdn_authorizations')
    .values({ state_hash: sha256Hex(state), workspace_id: workspaceId, code_verifier: sealer.seal(verifier), expires_at: expiresAt, created_at: now })
    .execute();
  const redirectUri = cdnCallbackUrl(publicUrl);
  const url = cdn.client.authorizationUrl({ clientId: cdn.oauth.clientId, redirectUri, state, codeChallenge: pkceChallenge(verifier), scopes: cdn.scopes });
  return { url, expiresAt, redirectUri, scopes: cdn.scopes };
}

/** The workspace and PKCE verifier of a state, used up at once; undefined when unknown, expired or already used. */
export async function takeCdnState(db: Kysely<Database>, clock: Clock, sealer: CredentialSealer, state: string): Promise<{ workspaceId: string; codeVerifier: string } | undefined> {
  const hash = sha256Hex(state);
  const row = await db.selectFrom('cdn_authorizations').selectAll().where('state_hash', '=', hash).executeTakeFirst();
  if (row === undefined) return undefined;
  // Deleted whether or not it is still valid: a state works once, and an expired one is of no further use.
  const taken = await db.deleteFrom('cdn_authorizations').where('state_hash', '=', hash).executeTakeFirst();
  if (taken.numDeletedRows !== 1n || row.expires_at <= clock.now()) return undefined;
  return { workspaceId: row.workspace_id, codeVerifier: sealer.open(row.code_verifier) };
}

/**
 * Records a grant (OAuth tokens or a pasted API token), tokens sealed. A zone already selected stays selected when the
 * new grant can still read it (the caller checks, `keepZone`); otherwise the zone and its stored hours are dropped.
 */
export async function saveCdnGrant(
  db: Kysely<Database>,
  clock: Clock,
  sealer: CredentialSealer,
  workspaceId: string,
  grant: { via: 'oauth'; tokens: CloudflareTokens } | { via: 'api_token'; token: string },
  keepZone: (zoneId: string) => boolean,
): Promise<void> {
  const now = clock.now();
  const tokens =
    grant.via === 'oauth'
      ? {
          access_token: sealer.seal(grant.tokens.accessToken),
          refresh_token: grant.tokens.refreshToken === null ? null : sealer.seal(grant.tokens.refreshToken),
          access_expires_at: grant.tokens.expiresAt,
        }
      : { access_token: sealer.seal(grant.token), refresh_token: null, access_expires_at: null };
  await db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('cdn_connections').select('zone_id').where('workspace_id', '=', workspaceId).executeTakeFirst();
    const values = { via: grant.via, ...tokens, connected_at: now, last_error: null };
    if (previous === undefined) {
      await trx
        .insertInto('cdn_connections')
        .values({
          workspace_id: workspaceId,
          ...values,
          ...NO_ZONE,
        })
        .execute();
      return;
    }
    if (previous.zone_id !== null && !keepZone(previous.zone_id)) await clearZone(trx, workspaceId);
    await trx.updateTable('cdn_connections').set(values).where('workspace_id', '=', workspaceId).execute();
  });
}

/** No zone selected any more, and the hours read from the one that was. */
export async function clearZone(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await trx.deleteFrom('cdn_crawler_hours').where('workspace_id', '=', workspaceId).execute();
  await trx
    .updateTable('cdn_connections')
    .set(NO_ZONE)
    .where('workspace_id', '=', workspaceId)
    .execute();
}

/**
 * Cloudflare refused the stored token for good (revoked, expired without refresh, a permission removed): the tokens
 * are forgotten and the reason kept for the owner, who connects again. Only the token that failed is forgotten, so a
 * newer grant saved meanwhile survives.
 */
export async function markGrantRefused(db: Kysely<Database>, clock: Clock, workspaceId: string, storedAccessToken: string, reason: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const marked = await trx
      .updateTable('cdn_connections')
      .set({ access_token: null, refresh_token: null, access_expires_at: null, last_error: reason })
      .where('workspace_id', '=', workspaceId)
      .where('access_token', '=', storedAccessToken)
      .executeTakeFirst();
    if (marked.numUpdatedRows !== 1n) return;
    await noteBrokenConnection(trx, clock, workspaceId, { connection: 'cdn', provider: 'Cloudflare', credential: storedAccessToken, error: reason, reconnectAt: `/w/${workspaceId}/settings` });
  });
}

export interface UsableGrant {
  /** The Bearer token to send. */
  token: string;
  /** The stored (sealed) form, which identifies this grant in later conditional writes. */
  stored: string;
}

/**
 * The workspace's Bearer token, an OAuth access token refreshed first when it has expired or is about to. The refresh
 * is written only over the refresh token it used: when another instance refreshed first (Cloudflare rotates refresh
 * tokens, so the older one is used up), that instance's token is taken instead. Undefined when not connected; a grant
 * Cloudflare refuses for good is marked refused and CloudflareAuthError thrown.
 */
export async function usableGrant(db: Kysely<Database>, clock: Clock, cdn: CdnService, sealer: CredentialSealer, workspaceId: string): Promise<UsableGrant | undefined> {
  const read = () =>
    db.selectFrom('cdn_connections').select(['via', 'access_token', 'refresh_token', 'access_expires_at']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  const row = await read();
  if (row === undefined || row.access_token === null) return undefined;
  const fresh = row.via === 'api_token' || row.access_expires_at === null || row.access_expires_at - EXPIRY_MARGIN_MS > clock.now();
  if (fresh) return { token: sealer.open(row.access_token), stored: row.access_token };
  const refused = async (reason: string): Promise<never> => {
    await markGrantRefused(db, clock, workspaceId, row.access_token!, reason);
    throw new CloudflareAuthError(reason);
  };
  if (row.refresh_token === null || cdn.oauth === undefined) {
    return refused(
      cdn.oauth === undefined
        ? `the Cloudflare access token expired and cannot be refreshed: ${CDN_OAUTH_SETTINGS} are no longer set on this server`
        : 'the Cloudflare access token expired and Cloudflare handed no refresh token (add the refresh_token grant type to the OAuth client)',
    );
  }
  let tokens: CloudflareTokens;
  try {
    tokens = await cdn.client.refreshToken(cdn.oauth, sealer.open(row.refresh_token));
  } catch (error) {
    if (!(error instanceof CloudflareAuthError)) throw error;
    const now = await read();
    if (now?.access_token !== null && now?.access_token !== undefined && now.refresh_token !== row.refresh_token) {
      return { token: sealer.open(now.access_token), stored: now.access_token };
    }
    return refused(error.message);
  }
  const stored = sealer.seal(tokens.accessToken);
  const written = await db
    .updateTable('cdn_connections')
    .set({ access_token: stored, refresh_token: tokens.refreshToken === null ? null : sealer.seal(tokens.refreshToken), access_expires_at: tokens.expiresAt })
    .where('workspace_id', '=', workspaceId)
    .where('refresh_token', '=', row.refresh_token)
    .executeTakeFirst();
  if (written.numUpdatedRows === 1n) return { token: tokens.accessToken, stored };
  // Another instance refreshed (or the owner reconnected) meanwhile: its token is the one stored.
  const now = await read();
  if (now?.access_token === null || now?.access_token === undefined) throw new CloudflareAuthError('the Cloudflare grant was removed while it was being refreshed');
  return { token: sealer.open(now.access_token), stored: now.access_token };
}

/** Why a callback or a pasted token did not connect, in words for the owner. */
export class CdnConnectError extends Error {
  constructor(
    message: string,
    /** Trying again later may work (Cloudflare busy or down). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'CdnConnectError';
  }
}

export interface CdnConnection {
  workspaceId: string;
  /** What the new grant can read: the owner (or an agent, with select_cdn_zone) picks one. */
  zones: CloudflareZone[];
  /** The zone selected before, when the new grant still reads it (its sync goes on). */
  keptZoneId: string | null;
}

async function saveWithZones(
  db: Kysely<Database>,
  clock: Clock,
  cdn: CdnService,
  sealer: CredentialSealer,
  workspaceId: string,
  grant: { via: 'oauth'; tokens: CloudflareTokens } | { via: 'api_token'; token: string },
): Promise<CdnConnection> {
  const zones = await cdn.client.listZones(grant.via === 'oauth' ? grant.tokens.accessToken : grant.token);
  const readable = new Set(zones.map((zone) => zone.id));
  await saveCdnGrant(db, clock, sealer, workspaceId, grant, (zoneId) => readable.has(zoneId));
  const kept = await db.selectFrom('cdn_connections').select('zone_id').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return { workspaceId, zones, keptZoneId: kept?.zone_id ?? null };
}

function connectFailure(error: unknown, what: string): never {
  if (error instanceof CloudflareError) throw new CdnConnectError(`${what}: ${error.message}`, error.retryable);
  throw error;
}

/**
 * Cloudflare's redirect back: the state taken (one-time, expiring, bound to the workspace that asked for the URL), the
 * code exchanged with the PKCE verifier, the tokens stored sealed, and the zones the grant reads listed.
 */
export async function completeCdnAuthorization(
  db: Kysely<Database>,
  clock: Clock,
  cdn: CdnService,
  sealer: CredentialSealer,
  publicUrl: string,
  callback: URLSearchParams,
): Promise<CdnConnection> {
  if (cdn.oauth === undefined) throw new CdnConnectError(notConfigured(CLOUDFLARE, ' on this server'));
  const state = callback.get('state');
  const taken = state === null || state === '' ? undefined : await takeCdnState(db, clock, sealer, state);
  if (taken === undefined) {
    throw new CdnConnectError(
      `this Cloudflare link is not valid: it expired (it lasts ${CDN_STATE_TTL_MS / 60_000} minutes) or was already used. Ask for a new one with get_cdn_connect_url, or use the Connect button on the Settings page`,
    );
  }
  const refusal = callback.get('error');
  if (refusal !== null) {
    const description = callback.get('error_description');
    throw new CdnConnectError(`Cloudflare did not grant access (${refusal}${description ? `: ${description.slice(0, 300)}` : ''})`);
  }
  const code = callback.get('code');
  if (code === null || code === '') throw new CdnConnectError('Cloudflare sent no authorization code back');
  try {
    const tokens = await cdn.client.exchangeCode(cdn.oauth, { code, codeVerifier: taken.codeVerifier, redirectUri: cdnCallbackUrl(publicUrl) });
    return await saveWithZones(db, clock, cdn, sealer, taken.workspaceId, { via: 'oauth', tokens });
  } catch (error) {
    connectFailure(error, 'Cloudflare was not connected');
  }
}

/** An API token the owner pasted (see pastedApiToken), checked by listing the zones it reads before it is stored sealed. */
export async function connectApiToken(db: Kysely<Database>, clock: Clock, cdn: CdnService, sealer: CredentialSealer, workspaceId: string, pasted: string): Promise<CdnConnection> {
  try {
    return await saveWithZones(db, clock, cdn, sealer, workspaceId, { via: 'api_token', token: pastedApiToken(pasted) });
  } catch (error) {
    connectFailure(error, 'the API token was not saved');
  }
}
