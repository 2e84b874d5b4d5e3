import type { Kysely } from 'kysely';

/**
 * MCP tasks (the `io.modelcontextprotocol/tasks` extension): a tools/call whose answer started a background job is
 * answered with a task handle instead, which the client polls with tasks/get. The job queue does the work; a task only
 * ties the handle to its job, its owner and the tool's immediate answer (the task's result once the job is done).
 *
 * `credential_id` is the Principal's credentialId: only the credential that started a task may read or cancel it.
 * `cancel_requested_at`: a client asked to cancel; `cancelled_at`: the job had not started and was withdrawn, so the task
 * is cancelled (a running job cannot be stopped and finishes on its own). Expired rows are swept by `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('cancel_requested_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mcp_tasks_expiry').on('mcp_tasks').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_tasks').execute();
}
