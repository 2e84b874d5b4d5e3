import { InvalidArgumentError, type Command } from 'commander';
import { report } from './common.js';

function isoDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new InvalidArgumentError('must be a day, YYYY-MM-DD');
  return value;
}

/** `admin digest send`: a week's digest now, to test the mail set-up or to send what a stopped service did not. */
export function registerDigestCommands(admin: Command): void {
  const digest = admin.command('digest').description('the weekly digest mail');
  digest
    .command('send')
    .description("send a week's digest now to a workspace's recipients (or everyone due), once per person and week unless --force")
    .requiredOption('--week <day>', 'any day of the week (Monday to Sunday, UTC), YYYY-MM-DD', isoDay)
    .option('--workspace <id>', "the workspace whose digest recipients get it")
    .option('--due', 'everyone whose digest of that week is due now (their day and hour in their time zone have come)')
    .option('--force', 'send again to people who already had (or were being sent) that week\u2019s digest, and record it')
    .option('--json', 'print one JSON object')
    .action(async (options: { week: string; workspace?: string; due?: boolean; force?: boolean; json?: boolean }) => {
      // The digest's code pulls in every provider: loaded only when the command runs.
      const { sendDigestCommand } = await import('./digestSend.js');
      const sends = await sendDigestCommand(options);
      const line = (send: (typeof sends)[number]) => {
        const { outcome } = send;
        if (outcome.state === 'sent') return `sent ${send.email} (${send.workspaceId}): ${outcome.messageId}`;
        if (outcome.state === 'already') return `not sent ${send.email} (${send.workspaceId}): this week's digest is already ${outcome.existing} (--force sends again)`;
        return `${outcome.state} ${send.email} (${send.workspaceId}): ${outcome.error}`;
      };
      const failed = sends.filter((send) => send.outcome.state === 'failed').length;
      report(options.json, { week: sends[0]?.week ?? options.week, sends }, sends.length === 0 ? 'nobody to send to' : sends.map(line).join('\n'));
      if (failed > 0) process.exitCode = 1;
    });
}
