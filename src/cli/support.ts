import { InvalidArgumentError, type Command } from 'commander';
import { listSupportMessages } from '../domain/support/messages.js';
import { report, withDatabase } from './common.js';

const MAX_LIST = 1000;

function listLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_LIST) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_LIST}`);
  return n;
}

/** One line per cell: a message body may span many lines and would break the table. */
function cell(value: string | null, width: number): string {
  const flat = (value ?? '-').replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((value, column) => value.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

/** `admin support …`: the operator's inbox of messages filed with send_support_message. */
export function registerSupportCommands(admin: Command): void {
  const support = admin.command('support').description('support messages filed by workspaces');

  support
    .command('list')
    .description('list support messages, newest first')
    .option('--workspace <id>', 'only this workspace')
    .option('--limit <n>', `how many, 1 to ${MAX_LIST}`, listLimit, 50)
    .option('--json', 'print one JSON object')
    .action(async (options: { workspace?: string; limit: number; json?: boolean }) => {
      const messages = await withDatabase(({ db }) => listSupportMessages(db, { workspaceId: options.workspace, limit: options.limit }));
      const text =
        messages.length === 0
          ? 'no support messages'
          : table([
              ['RECEIVED', 'WORKSPACE', 'FROM', 'SUBJECT', 'MESSAGE'],
              ...messages.map((m) => [
                m.receivedAt,
                `${m.workspaceId} (${cell(m.workspaceName, 24)})`,
                cell(m.contactEmail ?? m.apiKeyId, 40),
                cell(m.subject, 40),
                cell(m.message, 80),
              ]),
            ]);
      report(options.json, { messages }, text);
    });
}
