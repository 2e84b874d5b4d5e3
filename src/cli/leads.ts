import type { Command } from 'commander';
import { exportLeads, removeLeads } from '../analytics/leads.js';
import { OperatorError } from '../operator.js';
import { report, withDatabase } from './common.js';

/**
 * `admin leads …`: leads are personal data the tracking loader captured. An operator exports them for a data-access
 * request and removes them for an erasure request; the API only reads them (list_leads).
 */
export function registerLeadCommands(admin: Command): void {
  const leads = admin.command('leads').description("a workspace's captured leads (personal data): export or remove");

  leads
    .command('export')
    .description("print every lead of a workspace as JSON, oldest first (the workspace's data export of leads)")
    .requiredOption('--workspace <id>', 'the workspace')
    .action(async (options: { workspace: string }) => {
      const all = await withDatabase(({ db }) => exportLeads(db, options.workspace));
      report(true, { workspaceId: options.workspace, leads: all }, '');
    });

  leads
    .command('remove')
    .description('remove one lead, or every lead with an email address')
    .requiredOption('--workspace <id>', 'the workspace')
    .option('--lead <id>', 'the lead to remove')
    .option('--email <address>', 'remove every lead with this email address')
    .option('--json', 'print one JSON object')
    .action(async (options: { workspace: string; lead?: string; email?: string; json?: boolean }) => {
      if ((options.lead === undefined) === (options.email === undefined)) throw new OperatorError('give exactly one of --lead and --email');
      const which = options.lead !== undefined ? { leadId: options.lead } : { email: options.email! };
      const removed = await withDatabase(({ db }) => removeLeads(db, options.workspace, which));
      report(options.json, { removed }, `removed ${removed} lead${removed === 1 ? '' : 's'}`);
    });
}
