import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { operationOf, type CliCatalogue } from '../../adapters/cli.js';
import { ApiClient, CliError, EXIT } from './client.js';
import { report } from './common.js';
import { ProfileStore, requireKey, resolveConnection } from './profiles.js';

/** Prospects per add_outreach_prospects call: the operation's own maximum. */
export const IMPORT_CHUNK = 500;
const COLUMNS = ['url', 'email', 'name', 'note'] as const;

/** Commands the CLI adds to an operation group beyond the registry's operations (`sightline outreach import`). */
export const CONVENIENCE_COMMANDS = ['outreach import'] as const;

/** RFC 4180 records: commas, double-quoted fields with "" for a quote and line breaks inside quotes; CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw new CliError('the CSV ends inside a quoted field', EXIT.badInput);
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

export interface ImportRow {
  /** The CSV line the row starts on, for messages. */
  line: number;
  prospect: Record<string, string>;
}

/**
 * The prospects of a CSV with the header `url,email,name,note` (any order; only url is required, blank lines skipped).
 * A row with a blank url is refused here, naming the file's line and column: sent on, the server would name the
 * request's `domain` field, which is nowhere in the file.
 */
export function prospectsFromCsv(text: string, file = 'the CSV'): ImportRow[] {
  const [header, ...records] = parseCsv(text);
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (!names.includes('url') || unknown.length > 0) {
    throw new CliError(`the first line must be the header url,email,name,note (url required${unknown.length > 0 ? `; unknown column ${unknown.join(', ')}` : ''})`, EXIT.badInput);
  }
  const rows: ImportRow[] = [];
  let line = 2;
  for (const record of records) {
    const at = line;
    line += record.join(',').split(/\r\n|\n|\r/).length;
    if (record.every((value) => value.trim() === '')) continue;
    const value = (column: (typeof COLUMNS)[number]) => record[names.indexOf(column)]?.trim() ?? '';
    const site = value('url');
    if (site === '') throw new CliError(`${file} line ${at}: column url is blank (each row needs a page https://… or a domain)`, EXIT.badInput);
    const prospect: Record<string, string> = /^https?:\/\//i.test(site) ? { url: site } : { domain: site };
    if (value('email') !== '') prospect.contactEmail = value('email');
    if (value('name') !== '') prospect.contactName = value('name');
    if (value('note') !== '') prospect.note = value('note');
    rows.push({ line: at, prospect });
  }
  return rows;
}

/** `sightline outreach import <file.csv>`: the owner's prospects, sent with add_outreach_prospects in chunks. */
export function registerOutreachImport(program: Command, catalogue: CliCatalogue, note: (line: string) => void): void {
  const group = program.commands.find((command) => command.name() === 'outreach');
  if (group === undefined) return;
  group
    .command('import')
    .argument('<file>', 'the CSV file')
    .description(
      'add outreach prospects from a CSV file whose first line is url,email,name,note (url: a page or a domain; the rest optional), ' +
        `${IMPORT_CHUNK} per call of add-prospects; domains already in the pipeline are skipped; waits when rate limited`,
    )
    .option('--url <server>', 'the Sightline server (default: SIGHTLINE_URL, then the last login)')
    .option('--key <key>', 'API key (default: SIGHTLINE_API_KEY, then the stored login)')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: { url?: string; key?: string; json?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, EXIT.badInput);
      }
      const rows = prospectsFromCsv(text, file);
      if (rows.length === 0) throw new CliError(`${file} has no prospects below its header`, EXIT.badInput);
      const connection = resolveConnection(options, process.env, new ProfileStore());
      const client = new ApiClient({ baseUrl: connection.server, key: requireKey(connection), waitWhenLimited: true, notify: note });
      const operation = operationOf(catalogue, 'add_outreach_prospects');
      const totals = { added: 0, skipped: 0 };
      for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
        const chunk = rows.slice(start, start + IMPORT_CHUNK);
        let data: Record<string, unknown>;
        try {
          data = await client.call(operation, { prospects: chunk.map((row) => row.prospect) });
        } catch (error) {
          // The server names the item (prospects[3].url); the person fixes a line of the file.
          const item = error instanceof CliError ? /^prospects\[(\d+)\]\.(\w+)/.exec(error.message) : null;
          const row = item === null ? undefined : chunk[Number(item[1])];
          if (error instanceof CliError && row !== undefined) {
            throw new CliError(`${file} line ${row.line}: ${error.message}${start > 0 ? ` (the ${start} rows before it were imported)` : ''}`, error.exitCode);
          }
          throw error;
        }
        totals.added += Number(data.added);
        totals.skipped += Number(data.skipped);
        if (!options.json && rows.length > IMPORT_CHUNK) note(`${Math.min(start + IMPORT_CHUNK, rows.length)}/${rows.length} rows sent`);
      }
      report(options.json, { rows: rows.length, ...totals }, `${rows.length} rows: ${totals.added} prospects added, ${totals.skipped} skipped (already prospects, repeated, or the workspace's own site)`);
    });
}
