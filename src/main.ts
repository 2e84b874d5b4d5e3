import { openDatabase } from '../db/database.js';
import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { bootstrapFirstStart } from './domain/firstStart.js';
import { createService } from './service.js';

const config = loadConfig();
const database = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax });
const service = await createService({ config, database, clock: systemClock });
const { logger } = service;

const { workspaceName, siteUrl } = config.bootstrap;
const firstStart = await bootstrapFirstStart(database.db, systemClock, { name: workspaceName, siteUrl });
if (firstStart !== undefined) {
  const { workspaceId, key } = firstStart;
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
logger.info({ url: baseUrl, publicUrl: config.publicUrl, database: database.location, dialect: database.dialect, limits: service.limiterStore.name }, 'sightline is serving');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: not ready any more, finishing requests and jobs in flight');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
