import Table from 'cli-table3';
import { isPlainObject } from '../shared/objects.js';

/** Text cells are cut to this many characters, and records in cells wrap at it: a table is for scanning, --json gives everything. */
const CELL_WIDTH = 48;
/** A text this long that the answer already printed (a formula inside a definition) is pointed to, not printed again. */
const REPEAT_MIN_LENGTH = 40;

type Row = Record<string, unknown>;

const isTable = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isPlainObject);

interface Cell {
  text: string;
  cut: boolean;
}

/** Records (and lists of them) as JSON wrapped over lines, never cut; other values on one line, cut at the width. */
function cell(value: unknown): Cell {
  if (value === null || value === undefined) return { text: '', cut: false };
  if (typeof value === 'object' && !(Array.isArray(value) && value.every((v) => !isPlainObject(v)))) {
    const json = JSON.stringify(value);
    const wrapped: string[] = [];
    for (let start = 0; start < json.length; start += CELL_WIDTH) wrapped.push(json.slice(start, start + CELL_WIDTH));
    return { text: wrapped.join('\n'), cut: false };
  }
  const line = (Array.isArray(value) ? value.join(', ') : String(value)).replace(/\s+/g, ' ');
  return line.length > CELL_WIDTH ? { text: `${line.slice(0, CELL_WIDTH - 1)}…`, cut: true } : { text: line, cut: false };
}

/** Rows as a borderless table; the columns are every key any row has, in first-seen order. */
export function table(rows: readonly Row[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const rendered = new Table({
    head: columns,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    chars: { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '' },
  });
  let cut = false;
  for (const row of rows) {
    const cells = columns.map((column) => cell(row[column]));
    cut ||= cells.some((c) => c.cut);
    rendered.push(cells.map((c) => c.text));
  }
  const text = rendered
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
  return cut ? `${text}\n(text cut at ${CELL_WIDTH} characters: --json prints it whole)` : text;
}

/** Long texts already printed, by the key that printed them. */
type Printed = Array<{ key: string; text: string }>;

/** The key that already printed this long text, or within whose text it stands. */
function printedBefore(text: string, printed: Printed): string | undefined {
  return text.length < REPEAT_MIN_LENGTH ? undefined : printed.find((earlier) => earlier.text.includes(text))?.key;
}

/** A table's columns whose long text is the same on every row: printed once above the table instead. */
function sharedColumns(rows: readonly Row[]): string[] {
  if (rows.length < 2) return [];
  const columns = Object.keys(rows[0]!);
  const shared = columns.filter((column) => {
    const first = rows[0]![column];
    return typeof first === 'string' && first.length >= REPEAT_MIN_LENGTH && rows.every((row) => row[column] === first);
  });
  // A table of nothing but repeated texts keeps them: there would be no rows left to show.
  return shared.length < columns.length ? shared : [];
}

function lines(data: Row, indent: string, printed: Printed): string[] {
  const out: string[] = [];
  const scalar = (key: string, text: string, at = indent) => {
    const earlier = printedBefore(text, printed);
    if (earlier !== undefined) return out.push(`${at}${key}: (as in ${earlier} above)`);
    if (text.length >= REPEAT_MIN_LENGTH) printed.push({ key, text });
    return out.push(`${at}${key}: ${text}`);
  };
  for (const [key, value] of Object.entries(data)) {
    if (isTable(value)) {
      const shared = sharedColumns(value);
      out.push(`${indent}${key} (${value.length}):`);
      for (const column of shared) scalar(`${column} (every row)`, String(value[0]![column]), `${indent}  `);
      const rows = value.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !shared.includes(column))));
      out.push(...table(rows).split('\n').map((line) => `${indent}  ${line}`));
    } else if (isPlainObject(value)) {
      out.push(`${indent}${key}:`, ...(Object.keys(value).length === 0 ? [`${indent}  (none)`] : lines(value, `${indent}  `, printed)));
    } else if (Array.isArray(value)) {
      out.push(`${indent}${key}: ${value.length === 0 ? '(none)' : value.map((item) => (isPlainObject(item) ? JSON.stringify(item) : String(item))).join(', ')}`);
    } else if (typeof value === 'string') {
      scalar(key, value);
    } else {
      out.push(`${indent}${key}: ${value === null || value === undefined ? '-' : String(value)}`);
    }
  }
  return out;
}

/** An answer for people: scalars as `key: value`, lists of records as tables, nested records indented. */
export function readable(data: Row): string {
  return lines(data, '', []).join('\n');
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
