import type { Command } from 'commander';
import { report } from './common.js';

/** `admin backlinks …`: the backlink index, on demand. */
export function registerBacklinkCommands(admin: Command): void {
  const backlinks = admin.command('backlinks').description("the backlink index: who links to a workspace's website");

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
}
