import { sql, type Kysely } from 'kysely';

// The name PostgreSQL gave the constraint in 0007, kept through the rebuilds (foreign keys are named per table).
const WORKSPACE_FK = 'search_console_rows_workspace_id_fkey';
const COPIED_COLUMNS = sql.raw('workspace_id, query, page, clicks, impressions, position, start_date, end_date');

/**
 * Search Console rows per period (the last 28 full days and the 28 before them), so that growth can be measured. The
 * period joins the primary key, which SQLite cannot alter: the table is rebuilt, and the rows already synced become
 * the current period, which is what they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_console_period_rows')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'integer', (c) => c.notNull())
    .addColumn('position', 'real', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    // Not search_console_rows_pk: on PostgreSQL that is the name of the old table's key index, and index names are unique in a schema.
    .addPrimaryKeyConstraint('search_console_rows_period_pk', ['workspace_id', 'period', 'query', 'page'])
    .addForeignKeyConstraint(WORKSPACE_FK, ['workspace_id'], 'workspaces', ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await sql`insert into search_console_period_rows (period, ${COPIED_COLUMNS}) select 'current', ${COPIED_COLUMNS} from search_console_rows`.execute(db);
  await db.schema.dropTable('search_console_rows').execute();
  await db.schema.alterTable('search_console_period_rows').renameTo('search_console_rows').execute();
  // The queries a page (a published article) appears for, in one period.
  await db.schema.createIndex('search_console_rows_page').on('search_console_rows').columns(['workspace_id', 'period', 'page']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_console_one_period_rows')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'integer', (c) => c.notNull())
    .addColumn('position', 'real', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_console_rows_pk', ['workspace_id', 'query', 'page'])
    .addForeignKeyConstraint(WORKSPACE_FK, ['workspace_id'], 'workspaces', ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await sql`insert into search_console_one_period_rows (${COPIED_COLUMNS}) select ${COPIED_COLUMNS} from search_console_rows where period = 'current'`.execute(db);
  await db.schema.dropTable('search_console_rows').execute();
  await db.schema.alterTable('search_console_one_period_rows').renameTo('search_console_rows').execute();
  await db.schema.createIndex('search_console_rows_page').on('search_console_rows').columns(['workspace_id', 'page']).execute();
}
