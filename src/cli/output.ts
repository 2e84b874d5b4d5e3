import Table from 'cli-table3';

/** Cells are cut to this many characters: a table is for scanning, --json gives everything. */
const CELL_WIDTH = 48;

type Row = Record<string, unknown>;

const isRecord = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const isTable = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isRecord);

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => !isRecord(v)) ? value.join(', ') : JSON.stringify(value);
  const line = text.replace(/\s+/g, ' ');
  return line.length > CELL_WIDTH ? `${line.slice(0, CELL_WIDTH - 1)}…` : line;
}

/** Rows as a borderless table; the columns are every key any row has, in first-seen order. */
export function table(rows: readonly Row[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const rendered = new Table({
    head: columns,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    chars: { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '' },
  });
  for (const row of rows) rendered.push(columns.map((column) => cell(row[column])));
  return rendered
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

function lines(data: Row, indent: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (isTable(value)) {
      out.push(`${indent}${key} (${value.length}):`, ...table(value).split('\n').map((line) => `${indent}  ${line}`));
    } else if (isRecord(value)) {
      out.push(`${indent}${key}:`, ...(Object.keys(value).length === 0 ? [`${indent}  (none)`] : lines(value, `${indent}  `)));
    } else if (Array.isArray(value)) {
      out.push(`${indent}${key}: ${value.length === 0 ? '(none)' : value.map((item) => (isRecord(item) ? JSON.stringify(item) : String(item))).join(', ')}`);
    } else {
      out.push(`${indent}${key}: ${value === null || value === undefined ? '-' : String(value)}`);
    }
  }
  return out;
}

/** An answer for people: scalars as `key: value`, lists of records as tables, nested records indented. */
export function readable(data: Row): string {
  return lines(data, '').join('\n');
}

/** The words to show again: without --json, and never the key given with --key. */
function repeatable(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--json' || word.startsWith('--key=')) continue;
    if (word === '--key') i += 1;
    else words.push(word);
  }
  return words;
}

/** What follows a dry run: nothing changed, and the same command with --confirm does it. */
export function dryRunText(data: Row, argv: readonly string[]): string {
  const { dryRun: _dryRun, note, ...details } = data;
  const again = ['sightline', ...repeatable(argv), '--confirm'].map(shellWord).join(' ');
  return [`Dry run: ${String(note)}`, ...(Object.keys(details).length > 0 ? ['', readable(details)] : []), '', `Nothing changed. To do it: ${again}`].join('\n');
}

/** A single-quoted shell word: the shell reads it back exactly, quotes included. */
export const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A word as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : singleQuoted(word);
}
