/**
 * Shared by the benchmark's read parts (visibility.ts, counter.ts): the stores they generate history into (a temporary
 * SQLite file; a fresh PostgreSQL schema when one answers), the bulk writers that fill them, and the client that times
 * REST reads through the real service.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { createService, type Service } from '../../src/compositionRoot.js';

export type Value = string | number | null;
export type Row = Value[];

/** Tables by name, each with its columns in insert order and their PostgreSQL types (for the unnest casts). */
export type TableColumns = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Where batches go: one implementation per dialect, each the fastest plain way that dialect offers. */
export interface BulkWriter<Table extends string> {
  insert(table: Table, rows: readonly Row[]): Promise<void>;
  close(): Promise<void>;
}

/** SQLite: one prepared statement per table, run row by row inside a transaction per batch. */
export function sqliteWriter<T extends TableColumns>(path: string, tables: T): BulkWriter<keyof T & string> {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    async insert(table, rows) {
      let statement = statements.get(table);
      if (statement === undefined) {
        const columns = Object.keys(tables[table]!);
        statement = db.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
        statements.set(table, statement);
      }
      const prepared = statement;
      db.transaction(() => {
        for (const row of rows) prepared.run(row);
      })();
    },
    async close() {
      db.close();
    },
  };
}

const PG_BATCH = 20_000;

/** PostgreSQL: one `insert ... select from unnest($1::type[], ...)` per batch of rows: one round trip for thousands of rows. */
export async function postgresWriter<T extends TableColumns>(url: string, schema: string, tables: T): Promise<BulkWriter<keyof T & string>> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return {
    async insert(table, rows) {
      const columns = Object.entries(tables[table]!);
      for (let start = 0; start < rows.length; start += PG_BATCH) {
        const batch = rows.slice(start, start + PG_BATCH);
        const arrays = columns.map((_, i) => batch.map((row) => row[i] ?? null));
        await client.query(
          `insert into ${table} (${columns.map(([name]) => name).join(', ')}) select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`,
          arrays,
        );
      }
    },
    async close() {
      // What autovacuum does after a bulk load, done now: planner statistics, and the visibility map index-only scans need.
      await client.query('vacuum analyze');
      await client.end();
    },
  };
}

/** mulberry32: a small seeded generator, so that every run measures the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A database the history is generated into, opened for the service, and removed afterwards. */
export interface Store {
  dialect: 'sqlite' | 'postgres';
  handle: DatabaseHandle;
  writer<T extends TableColumns>(tables: T): Promise<BulkWriter<keyof T & string>>;
  size(): string;
  cleanUp(): Promise<void>;
}

export function sqliteStore(prefix: string): Store {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'bench.db');
  return {
    dialect: 'sqlite',
    handle: openDatabase(path),
    writer: async (tables) => sqliteWriter(path, tables),
    size: () => `${Math.round(statSync(path).size / 1024 / 1024)} MB file`,
    cleanUp: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh schema on the PostgreSQL at `url`, or undefined (with the reason logged) when none answers there. */
export async function postgresStore(url: string, log: (message: string) => void): Promise<Store | undefined> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostgreSQL at ${url} not reachable (${error instanceof Error ? error.message : String(error)}): SQLite only`);
    return undefined;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    dialect: 'postgres',
    handle: openDatabase(url, { schema }),
    writer: (tables) => postgresWriter(url, schema, tables),
    size: () => `schema ${schema}`,
    cleanUp: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/** Runs a bench on a fresh SQLite file, then on a fresh PostgreSQL schema when one answers at `pgUrl`; each store is removed after. */
export async function onEachStore<R>(sqlitePrefix: string, pgUrl: string, log: (message: string) => void, bench: (store: Store) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const open of [async () => sqliteStore(sqlitePrefix), () => postgresStore(pgUrl, log)]) {
    const store = await open();
    if (store === undefined) continue;
    try {
      results.push(await bench(store));
    } finally {
      await store.cleanUp();
    }
  }
  return results;
}

/**
 * The real service on the store, its worker off, and a caller rotating over `keyCount` all-scope keys of the
 * workspace, so that no key reaches a route cap. `env` adds settings (providers the reads expect configured).
 */
export async function serveWorkspace(store: Store, workspaceId: string, keyCount: number, env: Record<string, string> = {}): Promise<{ service: Service; caller: Caller; baseUrl: string }> {
  const keys = await store.handle.db.transaction().execute(async (trx) => {
    const made: string[] = [];
    for (let i = 0; i < keyCount; i++) made.push((await createApiKey(trx, systemClock, { workspaceId, scopes: ALL_SCOPES, name: `bench ${i}` })).key);
    return made;
  });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', JOBS_POLL_MS: '0', SHUTDOWN_READINESS_DELAY_MS: '0', ...env });
  const service = await createService({ config, database: store.handle, clock: systemClock, logger: pino({ level: 'silent' }) });
  const baseUrl = await service.listen();
  return { service, caller: new Caller(baseUrl, keys), baseUrl };
}

export const percentile = (sorted: readonly number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** A read to time: its label and its REST path with the query string. */
export interface ReadTarget {
  label: string;
  path: string;
}

export interface ReadMeasurement {
  label: string;
  p50: number;
  p99: number;
  max: number;
  kib: number;
}

export class Caller {
  private next = 0;
  constructor(
    private readonly baseUrl: string,
    private readonly keys: readonly string[],
  ) {}

  /** One GET with the next key of the pool; anything but a 200 stops the run. Resolves to the milliseconds taken and the body. */
  async get(path: string): Promise<{ ms: number; body: string }> {
    const key = this.keys[this.next++ % this.keys.length]!;
    const started = performance.now();
    const response = await fetch(`${this.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 300)}`);
    return { ms, body };
  }
}

/** `calls` timed GETs of the target, one at a time, after `warmUp` untimed ones. */
export async function measureRead(caller: Caller, target: ReadTarget, warmUp: number, calls: number): Promise<ReadMeasurement> {
  for (let i = 0; i < warmUp; i++) await caller.get(target.path);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < calls; i++) {
    const call = await caller.get(target.path);
    times.push(call.ms);
    bytes = call.body.length;
  }
  times.sort((a, b) => a - b);
  return { label: target.label, p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)), max: round(times[times.length - 1]!), kib: round(bytes / 1024) };
}

/** The reads as rows, each dialect's p50 and p99 side by side. */
export function readTable(results: ReadonlyArray<{ dialect: string; measurements: readonly ReadMeasurement[] }>): string {
  const labels = results[0]?.measurements.map((m) => m.label) ?? [];
  const header = ['read', ...results.flatMap((r) => [`${r.dialect} p50`, `${r.dialect} p99`])];
  const rows = labels.map((label, i) => [label, ...results.flatMap((r) => [String(r.measurements[i]!.p50), String(r.measurements[i]!.p99)])]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A bench setting from the environment: a whole number within bounds, or the fallback when unset. */
export function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name}: a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}
