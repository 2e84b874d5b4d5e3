import { setTimeout as sleep } from 'node:timers/promises';
import { Argument, Command, Option } from 'commander';
import { addOperationCommands, commandLine, type OperationInvocation } from '../../adapters/cli.js';
import type { JsonObject } from '../shared/objects.js';
import { registerAdminCommands } from './admin.js';
import { loadCatalogue } from './catalogue.js';
import { ApiClient, CLIENT_VERSION, CliError, EXIT } from './client.js';
import { report } from './common.js';
import { bashCompletion, zshCompletion } from './completion.js';
import { deviceLogin, logout, revokeAtServer, whoami } from './login.js';
import { dryRunText, readable } from './output.js';
import { DEFAULT_SERVER, ProfileStore, requireKey, resolveConnection, resolveServer } from './profiles.js';
import { registerOutreachImport } from './outreachImport.js';
import { SUMMARIES } from './summaries.js';
import { followApproval, followJob } from './wait.js';

const catalogue = loadCatalogue();
const note = (line: string) => process.stderr.write(`${line}\n`);
const print = (text: string) => process.stdout.write(`${text}\n`);
const asJson = (data: unknown) => JSON.stringify(data, null, 2);

const EXIT_CODE_HELP = `
Exit codes: 0 done (a dry run too), 1 failed (server error, unreachable, a job that failed), 2 bad input,
3 not logged in, key not valid or lacking the scope, 4 not found, 5 rate limited (--wait retries instead).
Environment: SIGHTLINE_URL and SIGHTLINE_API_KEY override the stored login (--url and --key override both).`;

/**
 * What the answer means for a person: a dry run says how to confirm, a started job or approval says how to follow it,
 * a long report is summarised unless `full`.
 */
function describeAnswer(operationId: string, data: JsonObject, waited: boolean, full: boolean): string {
  if (data.dryRun === true) return dryRunText(data, process.argv.slice(2));
  const summary = full ? undefined : SUMMARIES[operationId];
  const lines = [readable(summary === undefined ? data : summary(data))];
  if (summary !== undefined) lines.push('', 'A summary: --full prints every row (--json the whole answer).');
  if (!waited && typeof data.jobId === 'string') {
    lines.push('', `Runs in the background: follow it with \`sightline ${commandLine(catalogue, 'get_job')} --job-id ${data.jobId}\`, or repeat with --wait.`);
  }
  if (!waited && data.approval_required === true) {
    lines.push('', `Waiting for the workspace owner to approve at ${String(data.approvalUrl)}.`, `Follow it with \`sightline ${commandLine(catalogue, 'get_approval')} --approval-id ${String(data.approvalId)}\`, or repeat with --wait.`);
  }
  return lines.join('\n');
}

async function runOperation({ operation, input, client: options }: OperationInvocation): Promise<void> {
  const connection = resolveConnection(options, process.env, new ProfileStore());
  const key = operation.scope === 'public' ? undefined : requireKey(connection);
  const client = new ApiClient({ baseUrl: connection.server, ...(key !== undefined ? { key } : {}), waitWhenLimited: options.wait, notify: note });
  let data: JsonObject;
  try {
    data = await client.call(operation, input);
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.badInput && operation.confirm === 'required' && input.confirm !== true) {
      throw new CliError(`${error.message}\n(this command only runs with --confirm)`, EXIT.badInput);
    }
    throw error;
  }
  const waited = options.wait && data.dryRun !== true;
  if (waited && typeof data.jobId === 'string') data = { ...data, job: await followJob(client, catalogue, data.jobId, note) };
  if (waited && data.approval_required === true && typeof data.approvalId === 'string') data = { ...data, approval: await followApproval(client, catalogue, data.approvalId, note) };
  print(options.json ? asJson(data) : describeAnswer(operation.operationId, data, waited, options.full));
}

/** The whole command tree: account commands, one command per registry operation, and the operator's admin commands. */
export function buildProgram(): Command {
  const program = new Command('sightline')
    .description('Sightline from the terminal: every operation of the API, plus login and the operator commands')
    .version(CLIENT_VERSION)
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODE_HELP);

  const serverOption = () => new Option('--url <server>', `the Sightline server (default: SIGHTLINE_URL, then the last login, then ${DEFAULT_SERVER})`);

  program
    .command('login')
    .helpGroup('Account:')
    .description('log in with the device flow: approve in the browser, and the minted API key is stored for this server')
    .addOption(serverOption())
    .option('--scopes <scopes>', 'scopes to ask for, separated by spaces or commas (default: choose on the approval page)')
    .option('--no-browser', 'only print the address and code, do not open a browser')
    .option('--json', 'print the result as JSON')
    .action(async (options: { url?: string; scopes?: string; browser: boolean; json?: boolean }) => {
      const store = new ProfileStore();
      const server = resolveServer(options.url, process.env, store);
      const profile = await deviceLogin({
        catalogue,
        server,
        ...(options.scopes !== undefined ? { scope: options.scopes.split(/[\s,]+/).filter(Boolean).join(' ') } : {}),
        sleep: (ms) => sleep(ms),
        instruct: async ({ verificationUri, verificationUriComplete, userCode }) => {
          note(`To log in to ${server}, open ${verificationUri} and enter the code ${userCode}`);
          note(`(or open ${verificationUriComplete})`);
          // Only a person at a terminal has a browser to open; a script gets the address.
          if (options.browser && process.stdout.isTTY) {
          const { default: open } = await import('open');
          await open(verificationUriComplete).catch(() => note('could not open a browser; open the address above'));
        }
          note('Waiting for approval…');
        },
      });
      const previous = store.profile(server);
      store.save(server, profile);
      // A new login replaces the server's profile; the key it held would otherwise stay live with no one holding it.
      if (previous !== undefined && previous.key !== profile.key) {
        const { revoked, revokeError } = await revokeAtServer(server, previous.key);
        note(revoked ? `The previous key ${previous.keyId} was revoked.` : `The previous key ${previous.keyId} could not be revoked (${revokeError}); revoke it in the dashboard.`);
      }
      const { key: _key, ...shown } = profile;
      report(options.json, { server, ...shown, profiles: store.file }, `Logged in to ${server}: workspace ${profile.workspaceId}, key ${profile.keyId}, scopes ${profile.scope}.\nThe key is stored in ${store.file}.`);
    });

  program
    .command('logout')
    .helpGroup('Account:')
    .description("revoke the stored key on the server and forget this server's login")
    .addOption(serverOption())
    .option('--json', 'print the result as JSON')
    .action(async (options: { url?: string; json?: boolean }) => {
      const store = new ProfileStore();
      const result = await logout(store, resolveConnection(options, process.env, store));
      const text = !result.removed
        ? `Not logged in to ${result.server}.`
        : result.revoked
          ? `Logged out of ${result.server}: the key was revoked and removed from ${store.file}.`
          : `Logged out of ${result.server}: the key was removed from ${store.file}, but the server could not revoke it (${result.revokeError ?? 'unknown error'}); revoke it in the dashboard's API keys page.`;
      report(options.json, { ...result }, text);
    });

  program
    .command('whoami')
    .helpGroup('Account:')
    .description('show the server, workspace, key, scopes and plan in use, as the server sees them (get_caller)')
    .addOption(serverOption())
    .option('--key <key>', 'API key (default: SIGHTLINE_API_KEY, then the stored login)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { url?: string; key?: string; json?: boolean }) => {
      const connection = resolveConnection(options, process.env, new ProfileStore());
      const identity = await whoami(catalogue, connection, requireKey(connection));
      const text = [
        `server:    ${identity.server}`,
        `workspace: ${identity.workspaceId} ${identity.workspaceName} (${identity.websiteUrl})`,
        `key:       ${identity.keyId === null ? 'an OAuth token' : `${identity.keyId} "${identity.keyName ?? ''}"`} (from ${identity.keySource})`,
        `scopes:    ${identity.scopes.join(' ')}`,
        `plan:      ${identity.plan}, ${identity.requestsPerMinute} requests a minute`,
      ].join('\n');
      report(options.json, { ...identity }, text);
    });

  program
    .command('completion')
    .helpGroup('Account:')
    .description('print the shell completion script: source <(sightline completion bash), or zsh')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      process.stdout.write(shell === 'bash' ? bashCompletion(program) : zshCompletion(program));
    });

  addOperationCommands(program, catalogue, runOperation, new Set(Object.keys(SUMMARIES)));
  registerOutreachImport(program, catalogue, note);
  registerAdminCommands(program);
  return program;
}
