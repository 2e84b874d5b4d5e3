import type { DatabaseHandle } from '../../db/database.js';

/** Prints the result: exactly one JSON object on stdout with --json, a readable line otherwise. */
export function report(json: boolean | undefined, result: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${text}\n`);
}

/** Opens the database named by DATABASE_URL (the embedded SQLite file by default), brought up to date. */
export async function withDatabase<T>(run: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: only the operator's commands open a database, and the drivers slow every start.
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../../db/database.js'), import('../../db/migrate.js')]);
  const handle = openDatabase(process.env.DATABASE_URL || undefined);
  try {
    await migrateToLatest(handle);
    return await run(handle);
  } finally {
    await handle.close();
  }
}
