import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { createApiKey } from '../auth/apiKeys.js';
import { requireGrantable } from '../auth/roles.js';
import type { Clock } from '../clock.js';
import { ServiceError, type ErrorBody } from '../errors.js';
import { isScope, type Scope } from '../scopes.js';
import { randomToken, sha256Hex } from '../secrets.js';

/** RFC 8628 device login, whose credential is an API key minted for the approving user and workspace. */
export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const DEFAULT_DEVICE_CLIENT = 'sightline-cli';
// No vowels and no look-alikes: codes are read off one screen and typed into another.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** An RFC 8628 / RFC 6749 token error: `{ error: <code>, error_description }` with status 400. */
export class DeviceFlowError extends ServiceError {
  constructor(
    readonly code: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'invalid_scope' | 'invalid_request',
    description: string,
  ) {
    super(400, description);
  }

  override toBody(): ErrorBody & { error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}

function userCode(): string {
  const letters = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]);
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
}

/** Case and dash tolerant: `bcdf ghjk` finds BCDF-GHJK. */
export function normaliseUserCode(value: string): string {
  const letters = value.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

export async function startDeviceAuthorization(db: Kysely<Database>, clock: Clock, publicUrl: string, request: { clientId?: string; scope?: string }) {
  const requested = request.scope === undefined || request.scope.trim() === '' ? [] : request.scope.trim().split(/\s+/);
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new DeviceFlowError('invalid_scope', `unknown scopes: ${unknown.join(' ')}`);
  const deviceCode = randomToken();
  const code = userCode();
  const now = clock.now();
  await db
    .insertInto('device_authorizations')
    .values({
      device_code_hash: sha256Hex(deviceCode),
      user_code: code,
      client_id: (request.clientId ?? DEFAULT_DEVICE_CLIENT).slice(0, 100),
      scopes: requested.join(' '),
      status: 'pending',
      interval_seconds: POLL_INTERVAL_SECONDS,
      created_at: now,
      expires_at: now + DEVICE_CODE_TTL_SECONDS * 1000,
      last_polled_at: null,
      user_id: null,
      workspace_id: null,
      granted_scopes: null,
    })
    .execute();
  const verificationUri = `${publicUrl}/device`;
  return {
    device_code: deviceCode,
    user_code: code,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(code)}`,
    expires_in: DEVICE_CODE_TTL_SECONDS,
    interval: POLL_INTERVAL_SECONDS,
  };
}

/**
 * One poll. Statements here stand on their own (no enclosing transaction): the poll time and a slowed interval
 * must be kept even though the answer is an error. Minting the key and using up the code happen together.
 */
export async function pollDeviceAuthorization(db: Kysely<Database>, clock: Clock, deviceCode: string) {
  const now = clock.now();
  const row = await db.selectFrom('device_authorizations').selectAll().where('device_code_hash', '=', sha256Hex(deviceCode)).executeTakeFirst();
  if (row === undefined) throw new DeviceFlowError('invalid_grant', 'unknown device_code');
  if (row.status === 'used') throw new DeviceFlowError('invalid_grant', 'this device_code was already exchanged for a key');
  if (row.expires_at <= now) throw new DeviceFlowError('expired_token', 'the device code expired; start the login again');
  if (row.status === 'denied') throw new DeviceFlowError('access_denied', 'the user denied the login');
  if (row.status === 'pending') {
    const early = row.last_polled_at !== null && now - row.last_polled_at < row.interval_seconds * 1000;
    await db
      .updateTable('device_authorizations')
      .set({ last_polled_at: now, interval_seconds: early ? row.interval_seconds + 5 : row.interval_seconds })
      .where('device_code_hash', '=', row.device_code_hash)
      .execute();
    if (early) throw new DeviceFlowError('slow_down', `polling too fast: wait ${row.interval_seconds + 5} s between polls`);
    throw new DeviceFlowError('authorization_pending', 'waiting for the user to approve at the verification page');
  }
  const scopes = (row.granted_scopes ?? '').split(' ').filter(isScope);
  const minted = await db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('device_authorizations')
      .set({ status: 'used' })
      .where('device_code_hash', '=', row.device_code_hash)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    if (used.numUpdatedRows === 0n) throw new DeviceFlowError('invalid_grant', 'this device_code was already exchanged for a key');
    return createApiKey(trx, clock, { workspaceId: row.workspace_id!, userId: row.user_id, scopes, name: `device login (${row.client_id})` });
  });
  return { access_token: minted.key, token_type: 'Bearer' as const, scope: scopes.join(' '), key_id: minted.keyId, workspace_id: row.workspace_id! };
}

export interface PendingDevice {
  userCode: string;
  clientId: string;
  scopes: Scope[];
}

export async function findPendingDevice(db: Kysely<Database>, clock: Clock, code: string): Promise<PendingDevice | undefined> {
  const row = await db
    .selectFrom('device_authorizations')
    .select(['user_code', 'client_id', 'scopes'])
    .where('user_code', '=', normaliseUserCode(code))
    .where('status', '=', 'pending')
    .where('expires_at', '>', clock.now())
    .executeTakeFirst();
  return row === undefined ? undefined : { userCode: row.user_code, clientId: row.client_id, scopes: row.scopes.split(' ').filter(isScope) };
}

export type DeviceDecision = { userCode: string; userId: string } & ({ approve: false } | { approve: true; workspaceId: string; scopes: readonly Scope[] });

/** The user's answer on the verification page: approve for a workspace with scopes (within their role there), or deny. */
export async function decideDevice(db: Kysely<Database>, clock: Clock, decision: DeviceDecision): Promise<boolean> {
  if (decision.approve) await requireGrantable(db, decision);
  const result = await db
    .updateTable('device_authorizations')
    .set(
      decision.approve
        ? { status: 'approved', user_id: decision.userId, workspace_id: decision.workspaceId, granted_scopes: decision.scopes.join(' ') }
        : { status: 'denied', user_id: decision.userId },
    )
    .where('user_code', '=', decision.userCode)
    .where('status', '=', 'pending')
    .where('expires_at', '>', clock.now())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
