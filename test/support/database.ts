import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A schema of its own for one test file's database, and how to drop it. */
async function freshSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await onServer(url, `create schema ${schema}`);
  return { schema, drop: () => onServer(url, `drop schema ${schema} cascade`) };
}

/**
 * The dialect matrix: SQLite in memory always; PostgreSQL when TEST_DATABASE_URL is set, each handle in a
 * schema of its own that is dropped on close, so test files run side by side without seeing each other.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') return openDatabase(':memory:');
  const { schema, drop } = await freshSchema(url);
  const handle = openDatabase(url, { schema });
  return {
    ...handle,
    async close() {
      await handle.close();
      await drop();
    },
  };
}

/**
 * One database that several service instances open: a PostgreSQL schema of its own when TEST_DATABASE_URL is set, each
 * instance with its own pool as separate processes would; else a SQLite file in a temporary folder.
 * `open()` gives a new handle (the service that gets it closes it); `dispose()` removes the database.
 */
export async function sharedTestDatabase(): Promise<{ open(): DatabaseHandle; dispose(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    // better-sqlite3 blocks the thread while it waits for a lock, so two connections in one process would wait on each
    // other forever: in-process instances share one connection, and SQLite runs their writes one at a time as it would.
    const dir = mkdtempSync(join(tmpdir(), 'sightline-shared-'));
    const handle = openDatabase(join(dir, 'shared.db'));
    let users = 0;
    return {
      open() {
        users++;
        return { ...handle, close: async () => (--users === 0 ? handle.close() : undefined) };
      },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const { schema, drop } = await freshSchema(url);
  return { open: () => openDatabase(url, { schema }), dispose: drop };
}
