import { sql, type Kysely } from 'kysely';

/**
 * An MCP task follows every job its tool's answer started: publish_content and update_article_meta start one delivery
 * job per destination. `withdrawn_at`: tasks/cancel took this job off the queue before it ran; the task reads cancelled
 * once all of its jobs were withdrawn (its `cancelled_at`), however many tasks/cancel it took.
 *
 * mcp_tasks.job_id stays, holding the task's first job, so that an instance still on the previous release answers for a
 * task during a rolling deploy; the jobs a task follows are read from here only. Existing tasks get their one job, withdrawn
 * if the task was cancelled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_task_jobs')
    .addColumn('task_id', 'text', (c) => c.notNull().references('mcp_tasks.id').onDelete('cascade'))
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('withdrawn_at', 'bigint')
    .addPrimaryKeyConstraint('mcp_task_jobs_pk', ['task_id', 'job_id'])
    .execute();
  await sql`insert into mcp_task_jobs (task_id, job_id, withdrawn_at) select id, job_id, cancelled_at from mcp_tasks`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_task_jobs').execute();
}
