import { sql, type Kysely } from 'kysely';

/**
 * The mentions that name a subject (cited or mentioned), by answer: get_content_ideas asks, of every answer of the
 * last 30 days, whether it names a tracked competitor. Through the primary key that read every mention row of each
 * answer (eleven with ten competitors) to test its result; this index holds only the few rows that name a subject and
 * covers the question. Queries reach it only with the same condition written as literals (see querySignals).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('answer_mentions_named')
    .on('answer_mentions')
    .columns(['answer_id', 'subject_id'])
    .where(sql.ref('result'), 'in', [sql.lit('cited'), sql.lit('mentioned')])
    .execute();
}
