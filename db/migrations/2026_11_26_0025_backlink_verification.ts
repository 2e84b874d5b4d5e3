import type { Kysely } from 'kysely';

/**
 * Verification of known links: `check_failures` counts the verifications in a row whose page did not answer (timeout,
 * 5xx, refused), so that one bad day does not mark a link lost but a page gone for good eventually does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('backlinks').addColumn('check_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('backlinks').dropColumn('check_failures').execute();
}
