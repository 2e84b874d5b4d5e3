import { sql, type Kysely } from 'kysely';

/**
 * users.verified_at: when the account was shown to belong to its email's owner (made by the operator), or null for an
 * account made through a copied invite link, which anyone holding the link could have made. The operator's
 * create-user refuses to hand such an account a workspace unless told to reset it (see src/operator.ts).
 * Existing accounts made by accepting an invite have the invite's accepted_at as created_at; all others were made
 * by the operator.
 *
 * sessions.last_seen_at: the dashboard's idle timeout, kept to the minute.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('verified_at', 'bigint').execute();
  await sql`update users set verified_at = created_at where not exists (
    select 1 from team_invites where team_invites.email = users.email and team_invites.accepted_at = users.created_at
  )`.execute(db);
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}
