import type { Command } from 'commander';
import { report } from './common.js';

/** `admin backlinks …`: the backlink index and the verification of known links, on demand. */
export function registerBacklinkCommands(admin: Command): void {
  const backlinks = admin.command('backlinks').description("backlinks: read the backlink index, verify the links the service knows of");

  backlinks
    .command('sync')
    .description("read the workspace's backlinks, totals and referring domains (its own and its competitors') from the backlink index now")
    .argument('<workspaceId>', 'workspace id')
    .option('--wait', 'run the sync in this process, printing progress, until it is done or has failed')
    .option('--json', 'print one JSON object (no progress lines)')
    .action(async (workspaceId: string, options: { wait?: boolean; json?: boolean }) => {
      // The sync pulls in the providers and the job worker: loaded only when the command runs.
      const { syncBacklinks } = await import('./backlinkSync.js');
      const outcome = await syncBacklinks(workspaceId, options);
      const text =
        outcome.state === 'done'
          ? `backlink sync ${outcome.jobId} done: ${JSON.stringify(outcome.result)}`
          : `backlink sync ${outcome.jobId} ${outcome.queued ? 'queued' : `already ${outcome.state}`}; the service's job worker runs it (follow with \`sightline jobs list --kind backlink_sync\`, or run again with --wait)`;
      report(options.json, { ...outcome }, text);
    });

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
