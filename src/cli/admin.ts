import { InvalidArgumentError, type Command } from 'commander';
import { systemClock } from '../clock.js';
import { createWorkspace } from '../workspace/workspaces.js';
import { createKey, createUser, OperatorError, revokeKey } from '../operator.js';
import { isPlanName, PLAN_NAMES, type PlanName } from '../plans.js';
import { parseScopeList } from '../scopes.js';
import { registerBacklinkCommands } from './backlinks.js';
import { registerBillingCommands } from './billing.js';
import { registerCheckCommands } from './checks.js';
import { registerCommonCrawlCommands } from './commoncrawl.js';
import { registerCredentialCommands } from './credentials.js';
import { registerDigestCommands } from './digest.js';
import { registerLeadCommands } from './leads.js';
import { registerSupportCommands } from './support.js';
import { report, withDatabase } from './common.js';

function plan(value: string): PlanName {
  if (!isPlanName(value)) throw new InvalidArgumentError(`must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

function role(value: string): 'owner' | 'member' {
  if (value !== 'owner' && value !== 'member') throw new InvalidArgumentError('must be owner or member');
  return value;
}

/** `sightline admin …`: the operator's commands; they act on the database named by DATABASE_URL, not through the API. */
export function registerAdminCommands(program: Command): void {
  const admin = program.command('admin').description('operator commands: act directly on the database named by DATABASE_URL').helpGroup('Operator:');

  admin
    .command('create-workspace')
    .description('create a workspace (one website) with its brand and trial billing record')
    .requiredOption('--name <name>', 'workspace and brand name')
    .requiredOption('--site <url>', 'website URL (cannot be changed later)')
    .option('--plan <plan>', `plan: ${PLAN_NAMES.join(', ')}`, plan)
    .option('--json', 'print one JSON object')
    .action(async (options: { name: string; site: string; plan?: PlanName; json?: boolean }) => {
      const workspaceId = await withDatabase(({ db }) =>
        createWorkspace(db, systemClock, { name: options.name, websiteUrl: options.site, ...(options.plan ? { plan: options.plan } : {}) }).catch((error: unknown) => {
          throw new OperatorError(`site: ${error instanceof Error ? error.message : String(error)}`);
        }),
      );
      report(options.json, { workspaceId }, `created workspace ${workspaceId}`);
    });

  admin
    .command('create-user')
    .description('create a user (or add an existing one) as owner or member of a workspace')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--password <password>', 'password, at least 10 characters (ignored for an existing verified user)')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--role <role>', 'owner or member', role)
    .option('--reset-unverified', 'take over an account made through an invite link: set this password and end its sessions, keys and app connections')
    .option('--json', 'print one JSON object')
    .action(async (options: { email: string; password: string; workspace: string; role: 'owner' | 'member'; resetUnverified?: boolean; json?: boolean }) => {
      const created = await withDatabase(({ db }) =>
        createUser(db, systemClock, {
          email: options.email,
          password: options.password,
          workspaceId: options.workspace,
          role: options.role,
          resetUnverified: options.resetUnverified === true,
        }),
      );
      const how = created.reset
        ? `took over unverified user ${created.userId} (password set; ${created.reset.sessions} sessions, ${created.reset.apiKeys} API keys and ${created.reset.appConnections} app connections ended) and added it`
        : `${created.existingUser ? 'added existing user' : 'created user'} ${created.userId}`;
      report(options.json, { ...created }, `${how} as ${options.role}`);
    });

  admin
    .command('create-key')
    .description('mint an API key bound to one workspace; the key is printed once and stored only as a hash')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--scopes <scopes>', '"all" or a comma list of scopes')
    .option('--name <name>', 'a label to tell keys apart')
    .option('--json', 'print one JSON object')
    .action(async (options: { workspace: string; scopes: string; name?: string; json?: boolean }) => {
      let scopes;
      try {
        scopes = parseScopeList(options.scopes);
      } catch (error) {
        throw new OperatorError((error as Error).message);
      }
      const created = await withDatabase(({ db }) =>
        createKey(db, systemClock, { workspaceId: options.workspace, scopes, ...(options.name ? { name: options.name } : {}) }),
      );
      report(options.json, { key: created.key, keyId: created.keyId, scopes }, `key ${created.keyId}: ${created.key}\n(shown once; store it now)`);
    });

  admin
    .command('revoke-key')
    .description('revoke an API key; running instances refuse it within a second')
    .requiredOption('--key-id <id>', 'the key id (not the key)')
    .option('--json', 'print one JSON object')
    .action(async (options: { keyId: string; json?: boolean }) => {
      await withDatabase(({ db }) => revokeKey(db, systemClock, options.keyId));
      report(options.json, { keyId: options.keyId, revoked: true }, `revoked key ${options.keyId}`);
    });

  registerSupportCommands(admin);
  registerLeadCommands(admin);
  registerBillingCommands(admin);
  registerCheckCommands(admin);
  registerCredentialCommands(admin);
  registerBacklinkCommands(admin);
  registerCommonCrawlCommands(admin);
  registerDigestCommands(admin);
}
