import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/support/database.js';
import { openDatabase, type DatabaseHandle, type Dialect } from './database.js';
import { MIGRATIONS, migrateToLatest } from './migrate.js';

/**
 * db/schema.ts is written by hand and the migrations by hand; nothing else ties them together, so this file does:
 * it migrates a fresh database of each dialect, reads every table and column back, and compares them with the
 * `Database` interface as the TypeScript compiler sees it.
 */

const DB_DIR = dirname(fileURLToPath(import.meta.url));
const SRC_DIR = resolve(DB_DIR, '../src');

/** What a database column holds. */
type TypeClass = 'text' | 'integer' | 'real' | 'blob' | 'boolean' | 'json';
/** What a declared column holds: TypeScript's `number` cannot tell integer from real. */
type Declared = 'text' | 'number' | 'blob' | 'boolean' | 'json';
const HOLDS: Record<Declared, TypeClass[]> = { text: ['text'], number: ['integer', 'real'], blob: ['blob'], boolean: ['boolean'], json: ['json'] };

interface ColumnShape<Class> {
  /** One for a migrated column; a declared union (`number | string`) may name several. */
  classes: Class[];
  nullable: boolean;
}

type Tables<Class> = Map<string, Map<string, ColumnShape<Class>>>;

/** The `Database` interface of db/schema.ts: table name to column name to what a select gives back. */
function declaredTables(): Tables<Declared> {
  const file = join(DB_DIR, 'schema.ts');
  const program = ts.createProgram([file], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  if (database === undefined) throw new Error('db/schema.ts declares no Database interface');

  const tables: Tables<Declared> = new Map();
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(database))) {
    const columns = new Map<string, ColumnShape<Declared>>();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      columns.set(column.name, columnShape(checker, selectType(checker, checker.getTypeOfSymbol(column))));
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** `Generated<T>` and `ColumnType<S, I, U>` are objects with a phantom `__select__`: a query gives back S. */
function selectType(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  const select = type.getProperty('__select__');
  return select === undefined ? type : checker.getTypeOfSymbol(select);
}

function columnShape(checker: ts.TypeChecker, type: ts.Type): ColumnShape<Declared> {
  const members = type.isUnion() ? type.types : [type];
  const classes = new Set<Declared>();
  let nullable = false;
  for (const member of members) {
    if (member.flags & ts.TypeFlags.Null) nullable = true;
    else if (member.flags & ts.TypeFlags.StringLike) classes.add('text');
    else if (member.flags & ts.TypeFlags.NumberLike) classes.add('number');
    else if (member.flags & ts.TypeFlags.BooleanLike) classes.add('boolean');
    else if (/^(Buffer|Uint8Array)\b/.test(checker.typeToString(member))) classes.add('blob');
    else classes.add('json');
  }
  return { classes: [...classes].sort(), nullable };
}

/** SQLite keeps the declared type as written; its affinity rules (section 3.1 of "Datatypes In SQLite") give the class. */
function sqliteClass(declared: string): TypeClass {
  const type = declared.toLowerCase();
  if (type === 'boolean') return 'boolean';
  if (type === 'json' || type === 'jsonb') return 'json';
  if (type.includes('int')) return 'integer';
  if (/char|clob|text/.test(type)) return 'text';
  if (type === '' || type.includes('blob')) return 'blob';
  if (/real|floa|doub/.test(type)) return 'real';
  throw new Error(`no class for the SQLite column type ${declared} (numeric affinity: say integer or real)`);
}

/** kysely reports PostgreSQL's type by its internal name (pg_type.typname). */
function postgresClass(typname: string): TypeClass {
  const classes: Record<string, TypeClass> = {
    text: 'text',
    varchar: 'text',
    bpchar: 'text',
    int2: 'integer',
    int4: 'integer',
    int8: 'integer',
    float4: 'real',
    float8: 'real',
    numeric: 'real',
    bool: 'boolean',
    json: 'json',
    jsonb: 'json',
    bytea: 'blob',
  };
  const found = classes[typname];
  if (found === undefined) throw new Error(`no class for the PostgreSQL column type ${typname}`);
  return found;
}

/** Every table a fresh migration leaves, and its columns: the class of each column is exact here. */
async function migratedTables(handle: DatabaseHandle): Promise<Tables<TypeClass>> {
  await migrateToLatest(handle);
  const tables: Tables<TypeClass> = new Map();
  const column = (table: string, name: string, shape: ColumnShape<TypeClass>) => {
    if (!tables.has(table)) tables.set(table, new Map());
    tables.get(table)!.set(name, shape);
  };
  if (handle.dialect === 'sqlite') {
    // Read here rather than through kysely's introspection, which does not say which columns are the primary key: SQLite
    // lets a primary key other than INTEGER hold NULL unless it is declared not null (a quirk kept for old files). No
    // insert relies on it, PostgreSQL refuses it, and rebuilding every table is the only fix, so a key counts as not null.
    const { rows } = await sql<{ table: string; name: string; type: string; notnull: number; pk: number }>`
      select m.name as "table", c.name, c.type, c."notnull", c.pk
      from sqlite_master m join pragma_table_info(m.name) c
      where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like 'kysely_%'`.execute(handle.db);
    for (const row of rows) column(row.table, row.name, { classes: [sqliteClass(row.type)], nullable: row.notnull === 0 && row.pk === 0 });
    return tables;
  }
  // Only this file's schema: kysely's introspection reads every schema's columns, and other test files migrating their
  // own schemas at the same moment make PostgreSQL's catalog read fail now and then ("column … does not exist").
  const { rows } = await sql<{ table: string; name: string; type: string; notnull: boolean }>`
    select c.relname as "table", a.attname as name, t.typname as type, a.attnotnull as "notnull"
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_type t on t.oid = a.atttypid
    where n.nspname = ${handle.schema} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      and c.relname not like 'kysely_%'`.execute(handle.db);
  for (const row of rows) column(row.table, row.name, { classes: [postgresClass(row.type)], nullable: !row.notnull });
  return tables;
}

/** Every difference between the declared and the migrated tables, one line each. */
function differences(declared: Tables<Declared>, migrated: Tables<TypeClass>, dialect: Dialect): string[] {
  const found: string[] = [];
  for (const name of new Set([...declared.keys(), ...migrated.keys()])) {
    const types = declared.get(name);
    const table = migrated.get(name);
    if (types === undefined) found.push(`${name}: a ${dialect} table that db/schema.ts does not declare`);
    if (table === undefined) found.push(`${name}: declared in db/schema.ts, but no ${dialect} migration makes it`);
    if (types === undefined || table === undefined) continue;
    for (const column of new Set([...types.keys(), ...table.keys()])) {
      const declaredColumn = types.get(column);
      const migratedColumn = table.get(column);
      const where = `${name}.${column}`;
      if (declaredColumn === undefined) found.push(`${where}: a ${dialect} column that db/schema.ts does not declare`);
      else if (migratedColumn === undefined) found.push(`${where}: declared in db/schema.ts, but not in ${dialect}`);
      else {
        const [migratedClass] = migratedColumn.classes;
        const [declaredClass] = declaredColumn.classes;
        // A column holds one class; a union of several (number | string) claims values the database never gives back.
        if (declaredColumn.classes.length !== 1 || !HOLDS[declaredClass!].includes(migratedClass!)) {
          found.push(`${where}: ${migratedClass} in ${dialect}, but db/schema.ts says ${declaredColumn.classes.join(' | ')}`);
        }
        if (declaredColumn.nullable !== migratedColumn.nullable) {
          found.push(`${where}: ${migratedColumn.nullable ? 'nullable' : 'not null'} in ${dialect}, but db/schema.ts says ${declaredColumn.nullable ? 'nullable' : 'not null'}`);
        }
      }
    }
  }
  return found;
}

const withPostgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

describe('db/schema.ts against the migrated database', () => {
  let declared: Tables<Declared>;
  let sqlite: DatabaseHandle;
  let postgres: DatabaseHandle | undefined;
  beforeAll(async () => {
    declared = declaredTables();
    sqlite = openDatabase(':memory:');
    if (withPostgres) postgres = await openTestDatabase();
  });
  afterAll(async () => {
    await sqlite.close();
    await postgres?.close();
  });

  it('declares every SQLite table and column, with its nullability and class', async () => {
    expect(differences(declared, await migratedTables(sqlite), 'sqlite')).toEqual([]);
  });

  it.runIf(withPostgres)('declares every PostgreSQL table and column, with its nullability and class; both dialects agree', async () => {
    const migrated = await migratedTables(postgres!);
    expect(differences(declared, migrated, 'postgres')).toEqual([]);
    // db/schema.ts cannot tell integer from real: the two dialects must at least hold a number the same way.
    const lite = await migratedTables(sqlite);
    const apart = [...migrated].flatMap(([table, columns]) =>
      [...columns].filter(([column, shape]) => lite.get(table)?.get(column)?.classes[0] !== shape.classes[0]).map(([column]) => `${table}.${column}`),
    );
    expect(apart).toEqual([]);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('db/ stands alone', () => {
  it('imports nothing from src/: migrations are frozen, and src/ builds on db/, not the other way round', () => {
    const reaching = filesUnder(DB_DIR).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((specifier) => specifier.startsWith('.') && !relative(SRC_DIR, resolve(dirname(file), specifier)).startsWith('..'))
        .map((specifier) => `${relative(DB_DIR, file)} imports ${specifier}`),
    );
    expect(reaching).toEqual([]);
  });
});

describe('db/migrate.ts', () => {
  const files = readdirSync(join(DB_DIR, 'migrations'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -'.ts'.length))
    .sort();

  it('lists every file of db/migrations, each under its own name, and nothing else', async () => {
    expect(Object.keys(MIGRATIONS).sort()).toEqual(files);
    for (const name of files) expect(MIGRATIONS[name], name).toBe(await import(`./migrations/${name}.ts`));
  });

  it('gives each migration a number of its own, in the order of their names', () => {
    const numbers = files.map((name) => Number(/^\d{4}_\d{2}_\d{2}_(\d{4})_/.exec(name)?.[1]));
    expect(numbers.every((n) => Number.isInteger(n))).toBe(true);
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
  });
});
