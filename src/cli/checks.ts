import type { Command } from 'commander';
import { report } from './common.js';
import { SERP } from '../integrations/dataforseo/provider.js';
import { settingsPattern } from '../integrations/kit/declaration.js';

/** `admin run-checks`: a manual check run of one workspace, queued for the service or (--wait) run here to the end. */
export function registerCheckCommands(admin: Command): void {
  admin
    .command('run-checks')
    .description("check a workspace's tracked queries on every configured answer engine (and the rank checks) now; --wait runs them here and waits until they finish")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--wait', 'run the checks in this process, printing progress, until every one has an answer or has failed')
    .option('--json', 'print one JSON object (no progress lines)')
    .action(async (options: { workspace: string; wait?: boolean; json?: boolean }) => {
      // The run's code pulls in every provider and the job worker: loaded only when the command runs.
      const { runChecks } = await import('./checkRun.js');
      const summary = await runChecks(options);
      const { runId, state, planned, completed, failed, engines, notConfigured, rankChecks } = summary;
      const outcome =
        state === 'done'
          ? `check run ${runId}: ${completed} of ${planned} checks answered, ${failed} failed`
          : `check run ${runId}: ${planned} checks queued; the service's job worker runs them (follow with \`sightline jobs list --kind engine_check\`, or run again with --wait)`;
      report(
        options.json,
        { runId, state, planned, completed, failed, engines, notConfigured, rankChecks },
        [outcome, `engines: ${engines.join(', ') || 'none'}; not configured: ${notConfigured.join(', ') || 'none'}; rank checks: ${rankChecks ? 'yes' : `no (${settingsPattern(SERP)} not set)`}`].join('\n'),
      );
    });
}
