import { sql, type Kysely } from 'kysely';

/**
 * Run-to-run agreement per UTC day and engine (the cells of several runs of one query in one check run), kept at
 * write time. A search page that shows no AI answer (Google's AI overview, Copilot on Bing) is recorded as `not_shown`, apart from
 * `none`: a daily count of its own, and answers read from a rank check's page point at that check. Answers recorded
 * before as an empty overview (no text, no citations, no error) become `not_shown`, and the daily counts follow.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('visibility_daily').addColumn('not_shown', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('engine_answers').addColumn('rank_check_id', 'text').execute();
  // The other runs of a cell, found while an answer is recorded.
  await db.schema.createIndex('engine_answers_cell').on('engine_answers').columns(['run_id', 'query_id', 'engine', 'brand_result']).execute();
  await db.schema
    .createTable('agreement_daily')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('cells', 'integer', (c) => c.notNull())
    .addColumn('agreeing', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('agreement_daily_pk', ['workspace_id', 'day', 'engine'])
    .execute();

  await sql`update engine_answers set brand_result = 'not_shown'
    where engine = 'google_ai_overview' and error_class is null and answer_text = '' and citations = '[]'`.execute(db);
  await sql`update answer_mentions set result = 'not_shown'
    where answer_id in (select id from engine_answers where brand_result = 'not_shown')`.execute(db);
  await sql`update visibility_daily set not_shown = (
      select count(*) from engine_answers a join answer_mentions m on m.answer_id = a.id
      where a.workspace_id = visibility_daily.workspace_id and a.engine = visibility_daily.engine
        and (a.checked_at / 86400000) * 86400000 = visibility_daily.day
        and m.subject_id = visibility_daily.subject_id and m.result = 'not_shown')
    where engine = 'google_ai_overview'`.execute(db);
  await sql`update visibility_daily set answers = answers - not_shown where not_shown > 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update visibility_daily set answers = answers + not_shown`.execute(db);
  await sql`update answer_mentions set result = 'none' where result = 'not_shown'`.execute(db);
  await sql`update engine_answers set brand_result = 'none' where brand_result = 'not_shown'`.execute(db);
  await db.schema.dropTable('agreement_daily').execute();
  await db.schema.dropIndex('engine_answers_cell').execute();
  await db.schema.alterTable('engine_answers').dropColumn('rank_check_id').execute();
  await db.schema.alterTable('visibility_daily').dropColumn('not_shown').execute();
}
