import { randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { sha256Hex } from '../secrets.js';
import type { Scope } from '../scopes.js';
import { forgetAuthenticatedKeys } from './keyCache.js';
import { requireGrantable } from './roles.js';

/**
 * Key format: `slk_` + 43 base62 characters of randomness + 6 base62 characters of CRC32 checksum,
 * in the manner of GitHub's tokens: the prefix makes a leaked key recognisable to secret scanners and
 * the checksum lets us refuse a mistyped key without touching the database.
 */
const KEY_PREFIX = 'slk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return toBase62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the string has the key format and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  const expected = Buffer.from(checksum(body));
  const actual = Buffer.from(key.slice(KEY_PREFIX.length + BODY_LENGTH));
  return timingSafeEqual(expected, actual);
}

/** Keys carry 256 random bits, so a fast hash is enough; a slow one would cost ~40 ms per request. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export interface CreatedApiKey {
  key: string;
  keyId: string;
  displayPrefix: string;
}

/** A key made for a person (`userId`) holds at most what their role in the workspace may grant; the operator's keys have no person. */
export async function createApiKey(
  db: Kysely<Database>,
  clock: Clock,
  options: { workspaceId: string; scopes: readonly Scope[]; name: string; userId?: string | null },
): Promise<CreatedApiKey> {
  if (options.userId != null) await requireGrantable(db, { workspaceId: options.workspaceId, userId: options.userId, scopes: options.scopes });
  const key = generateApiKey();
  const keyId = newId('key');
  const displayPrefix = key.slice(0, KEY_PREFIX.length + 6);
  await db
    .insertInto('api_keys')
    .values({
      id: keyId,
      workspace_id: options.workspaceId,
      user_id: options.userId ?? null,
      name: options.name,
      key_hash: hashApiKey(key),
      display_prefix: displayPrefix,
      scopes: options.scopes.join(' '),
      created_at: clock.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { key, keyId, displayPrefix };
}

/** Which live keys a revocation ends: one by id (within a workspace when given), one by its secret, or a person's (in one workspace when given). */
export type RevokedKeys = { keyId: string; workspaceId?: string } | { key: string } | { userId: string; workspaceId?: string };

/**
 * Every revocation goes through here. The key is refused from the next request on in this process, whose caches of
 * authenticated keys are emptied, and within KEY_CACHE_TTL_MS on every other instance. Answers how many live keys
 * it revoked.
 */
export async function revokeApiKeys(db: Kysely<Database>, clock: Clock, which: RevokedKeys): Promise<number> {
  let query = db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('revoked_at', 'is', null);
  if ('key' in which) query = query.where('key_hash', '=', hashApiKey(which.key));
  else if ('keyId' in which) {
    query = query.where('id', '=', which.keyId);
    if (which.workspaceId !== undefined) query = query.where('workspace_id', '=', which.workspaceId);
  } else {
    query = query.where('user_id', '=', which.userId);
    if (which.workspaceId !== undefined) query = query.where('workspace_id', '=', which.workspaceId);
  }
  const result = await query.executeTakeFirst();
  forgetAuthenticatedKeys();
  return Number(result.numUpdatedRows);
}

/** Returns false when no live key matched (within `workspaceId` when given). */
export async function revokeApiKey(db: Kysely<Database>, clock: Clock, keyId: string, workspaceId?: string): Promise<boolean> {
  return (await revokeApiKeys(db, clock, workspaceId === undefined ? { keyId } : { keyId, workspaceId })) > 0;
}

export interface ApiKeySummary {
  keyId: string;
  name: string;
  displayPrefix: string;
  scopes: string[];
  userId: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export async function listApiKeys(db: Kysely<Database>, workspaceId: string): Promise<ApiKeySummary[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map((r) => ({
    keyId: r.id,
    name: r.name,
    displayPrefix: r.display_prefix,
    scopes: r.scopes.split(' '),
    userId: r.user_id,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  }));
}
