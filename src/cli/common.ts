import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';

/** Prints the result: exactly one JSON object on stdout with --json, a readable line otherwise. */
export function report(json: boolean | undefined, result: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${text}\n`);
}

/** Opens the database named by DATABASE_URL (the embedded SQLite file by default), brought up to date. */
export async function withDatabase<T>(run: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openDatabase(process.env.DATABASE_URL || undefined);
  try {
    await migrateToLatest(handle);
    return await run(handle);
  } finally {
    await handle.close();
  }
}
