import type { Command } from 'commander';
import { report } from './common.js';

/** `admin backlinks …`: the operator's commands about the backlinks the service knows of. */
export function registerBacklinkCommands(admin: Command): void {
  const backlinks = admin.command('backlinks').description('backlinks: verify the links the service knows of');
  backlinks
    .command('verify')
    .description('check the known links (outreach, managed, network) on their linking pages now; --wait runs the checks here until they finish')
    .option('--workspace <id>', 'only this workspace (default: every workspace)')
    .option('--wait', 'run the checks in this process, printing progress, until every link has been checked')
    .option('--json', 'print one JSON object (no progress lines)')
    .action(async (options: { workspace?: string; wait?: boolean; json?: boolean }) => {
      // The job code pulls in every provider and the job worker: loaded only when the command runs.
      const { verifyKnownLinks } = await import('./backlinkVerify.js');
      const summary = await verifyKnownLinks(options);
      const text =
        summary.state === 'done'
          ? `${summary.links} links checked: ${summary.verified} verified, ${summary.lost} lost, ${summary.unreadable} pages not readable (tried again in a day)` +
            (summary.failedJobs > 0 ? `; ${summary.failedJobs} jobs failed (see \`sightline jobs list --kind backlink_verify\`)` : '')
          : `${summary.links} links queued for verification in ${summary.jobs} jobs; the service's job worker runs them (or run again with --wait)`;
      report(options.json, { ...summary }, text);
    });
}
