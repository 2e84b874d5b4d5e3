import { InvalidArgumentError, type Command } from 'commander';
import { listSupportMessages } from '../support/messages.js';
import { report, withDatabase } from './common.js';
import { table } from './output.js';

const MAX_LIST = 1000;

function listLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_LIST) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_LIST}`);
  return n;
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
          : table(
              messages.map((m) => ({
                RECEIVED: m.receivedAt,
                WORKSPACE: `${m.workspaceId} (${m.workspaceName})`,
                FROM: m.contactEmail ?? m.apiKeyId,
                SUBJECT: m.subject,
                MESSAGE: m.message,
              })),
            );
      report(options.json, { messages }, text);
    });
}
