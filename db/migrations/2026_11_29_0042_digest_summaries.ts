import type { Kysely } from 'kysely';

/**
 * The writer model's phrasing of a digest summary (src/changes/digest/summary.ts), kept per workspace and per the
 * exact figures it phrased (`figures_hash`: the model and the template's sentences). Every recipient of a week's
 * digest, and every get_digest call for that week, then reads the same words, and the model is asked once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('digest_summaries')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('figures_hash', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_summaries_pk', ['workspace_id', 'figures_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('digest_summaries').execute();
}
