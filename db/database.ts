import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for start-up messages (never includes a password). */
  location: string;
  /** PostgreSQL schema the handle is confined to, when not the server's default. */
  schema?: string;
  /** PostgreSQL only: the connection pool, which the shared limiter store uses too. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export const DEFAULT_SQLITE_PATH = './data/sightline.db';

// int8 (bigint) columns hold epoch milliseconds, far below 2^53: read them as numbers, as SQLite does.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (the tests give each run its own). */
  schema?: string;
  /** PostgreSQL only: connections this process keeps at most (DATABASE_POOL_MAX). */
  poolMax?: number;
}

export const DEFAULT_POOL_MAX = 10;

/**
 * `DATABASE_URL` unset: the embedded SQLite file; a path or `file:` URL: that SQLite file;
 * `:memory:`: a private in-memory SQLite database; `postgres://`: PostgreSQL.
 */
export function openDatabase(url: string | undefined, options: OpenOptions = {}): DatabaseHandle {
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.schema, options.poolMax ?? DEFAULT_POOL_MAX);
  return openSqlite(sqlitePath(url));
}

function sqlitePath(url: string | undefined): string {
  if (url === undefined || url === '') return resolve(DEFAULT_SQLITE_PATH);
  if (url === ':memory:') return url;
  if (url.startsWith('file://')) return fileURLToPath(url);
  if (url.startsWith('file:')) return resolve(url.slice('file:'.length));
  return resolve(url);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * kysely prepares every statement afresh; preparing costs more than running a small indexed query, so statements
 * are kept by SQL text (a bounded, least-recently-used map). A statement is busy while it is iterated, so
 * streamed queries get a statement of their own.
 */
function withStatementCache(sqlite: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      } else {
        cache.delete(sql);
      }
      cache.set(sql, statement);
      const cached = statement;
      return {
        reader: cached.reader,
        all: (parameters) => cached.all(parameters),
        run: (parameters) => cached.run(parameters),
        iterate: (parameters) => sqlite.prepare(sql).iterate(parameters),
      };
    },
  };
}

/**
 * kysely begins a SQLite transaction with a plain (deferred) `begin`, which asks for the write lock only at the first
 * write. When another process has committed since the transaction's first read, its snapshot is stale: SQLite then
 * answers `database is locked` at once, without waiting out the busy timeout. `begin immediate` takes the write lock
 * at the start, waiting its turn when another process holds it; a transaction that only reads takes it too, for as
 * short a time. Within one process nothing changes: kysely runs the one connection's transactions one at a time.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * kysely's SQLite adapter takes no migration lock and runs each migration outside a transaction, so two processes
 * starting together on a new file both ran the first one. SQLite can change its schema inside a transaction: the
 * pending migrations run in one (immediate) transaction, and a process that comes second waits, then finds nothing
 * left to do. A failing migration leaves the whole set unapplied, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

function openSqlite(path: string): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL under WAL keeps every acknowledged commit across process crashes; only power loss can drop the last ones.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', location: path, close: () => db.destroy() };
}

function openPostgres(url: string, schema: string | undefined, poolMax: number): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const parsed = new URL(url);
  parsed.password = '';
  return { db, dialect: 'postgres', location: parsed.href, pool, ...(schema === undefined ? {} : { schema }), close: () => db.destroy() };
}
