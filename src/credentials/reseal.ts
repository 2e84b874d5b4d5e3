import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CredentialSealer } from './sealed.js';

/** Every column that holds a stored credential, with the key that names its row; counted under `name`. */
const CREDENTIAL_COLUMNS = [
  { name: 'destinations', table: 'destinations', key: 'id', column: 'signing_secret' },
  { name: 'search_console_connections', table: 'search_console_connections', key: 'workspace_id', column: 'refresh_token' },
  { name: 'oauth_signing_keys', table: 'oauth_signing_keys', key: 'kid', column: 'private_jwk' },
  { name: 'cdn_connections.access_token', table: 'cdn_connections', key: 'workspace_id', column: 'access_token' },
  { name: 'cdn_connections.refresh_token', table: 'cdn_connections', key: 'workspace_id', column: 'refresh_token' },
  { name: 'cdn_authorizations.code_verifier', table: 'cdn_authorizations', key: 'state_hash', column: 'code_verifier' },
  { name: 'site_analytics_connections', table: 'site_analytics_connections', key: 'workspace_id', column: 'credential' },
  { name: 'ga4_authorizations', table: 'ga4_authorizations', key: 'workspace_id', column: 'refresh_token' },
  { name: 'webflow_connections', table: 'webflow_connections', key: 'workspace_id', column: 'access_token' },
  { name: 'outreach_mailboxes.smtp_password', table: 'outreach_mailboxes', key: 'workspace_id', column: 'smtp_password' },
  { name: 'outreach_mailboxes.imap_password', table: 'outreach_mailboxes', key: 'workspace_id', column: 'imap_password' },
] as const;

export type ResealCounts = Record<(typeof CREDENTIAL_COLUMNS)[number]['name'], { resealed: number; alreadyCurrent: number }>;

/**
 * Seals every stored credential again under the current SECRETS_KEY, opening it with the current or a previous key
 * (or reading it as plain text when it was stored before a key was set), in one transaction. Run again, it changes
 * nothing. Without SECRETS_KEY it turns every credential back into plain text, which is how a key is taken away.
 */
export async function resealCredentials(db: Kysely<Database>, credentials: CredentialSealer): Promise<ResealCounts> {
  return db.transaction().execute(async (trx) => {
    const counts = {} as ResealCounts;
    for (const { name, table, key, column } of CREDENTIAL_COLUMNS) {
      const rows = (await trx.selectFrom(table).select([`${key} as id`, `${column} as stored`]).execute()) as Array<{ id: string; stored: string | null }>;
      const stale = rows.filter((row): row is { id: string; stored: string } => row.stored !== null && !credentials.isCurrent(row.stored));
      for (const row of stale) {
        await trx
          .updateTable(table)
          .set({ [column]: credentials.seal(credentials.open(row.stored)) })
          .where(key, '=', row.id)
          .execute();
      }
      counts[name] = { resealed: stale.length, alreadyCurrent: rows.filter((row) => row.stored !== null).length - stale.length };
    }
    return counts;
  });
}
