import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';

/**
 * The dialect matrix: SQLite in memory always; PostgreSQL when TEST_DATABASE_URL is set, each handle in a
 * schema of its own that is dropped on close, so test files run side by side without seeing each other.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') return openDatabase(':memory:');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase(url, { schema });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}
