import type { Kysely } from 'kysely';

/** Signing keys that rotate. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Null while the key signs new tokens; after a rotation, the time until which it still verifies them.
  await db.schema.alterTable('oauth_signing_keys').addColumn('retire_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_signing_keys').dropColumn('retire_at').execute();
}
