import { openDatabase } from '../db/database.js';
import { createApiKey } from './auth/apiKeys.js';
import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { countWorkspaces, createWorkspace } from './domain/workspaces.js';
import { ALL_SCOPES } from './scopes.js';
import { createService } from './service.js';

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
const service = await createService({ config, database, clock: systemClock });
const { logger } = service;

// First start on an empty database: one workspace and an all-scope key, so a newcomer can call the API at once.
if ((await countWorkspaces(database.db)) === 0) {
  const { workspaceName, siteUrl } = config.bootstrap;
  const workspaceId = await createWorkspace(database.db, systemClock, { name: workspaceName, websiteUrl: siteUrl });
  const { key } = await createApiKey(database.db, systemClock, { workspaceId, scopes: ALL_SCOPES, name: 'first-start key' });
  const mcpConfig = { mcpServers: { sightline: { type: 'http', url: `${config.publicUrl}/mcp`, headers: { Authorization: `Bearer ${key}` } } } };
  process.stdout.write(
    [
      '',
      `Created workspace ${workspaceId} ("${workspaceName}", ${siteUrl}) and an API key with every scope.`,
      'The key is shown this once; store it now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${key}" ${config.publicUrl}/api/v1/brand`,
      '',
      'MCP client configuration:',
      JSON.stringify(mcpConfig, null, 2).replace(/^/gm, '  '),
      '',
    ].join('\n') + '\n',
  );
}

const baseUrl = await service.listen();
logger.info({ url: baseUrl, publicUrl: config.publicUrl, database: database.location, dialect: database.dialect }, 'sightline is serving');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
