import { openDatabase } from '../db/database.js';
import { systemClock } from './clock.js';
import { DEFAULT_SERVER } from './cli/profiles.js';
import { loadConfig } from './config.js';
import { bootstrapFirstStart } from './workspace/firstStart.js';
import { createService } from './compositionRoot.js';

const config = loadConfig();
const database = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax });
const service = await createService({ config, database, clock: systemClock });
const { logger } = service;

const { workspaceName, siteUrl } = config.bootstrap;
const firstStart = await bootstrapFirstStart(database.db, systemClock, { name: workspaceName, siteUrl });
if (firstStart !== undefined) {
  const { workspaceId, key } = firstStart;
  const mcpConfig = { mcpServers: { sightline: { type: 'http', url: `${config.publicUrl}/mcp`, headers: { Authorization: `Bearer ${key}` } } } };
  // The command-line client goes to its default server unless told otherwise; the line names this one only when it differs.
  const cliServer = config.publicUrl === DEFAULT_SERVER ? '' : `SIGHTLINE_URL=${config.publicUrl} `;
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
      `  ${cliServer}SIGHTLINE_API_KEY=${key} npx sightline brand get   # the same through the command-line client`,
      '',
      `Dashboard account (then sign in at ${config.publicUrl}/signin), with the same DATABASE_URL:`,
      `  npx sightline admin create-user --email you@example.com --password '<at least 10 characters>' --workspace ${workspaceId} --role owner`,
      '',
      'MCP client configuration:',
      JSON.stringify(mcpConfig, null, 2).replace(/^/gm, '  '),
      '',
      `API reference, every operation on REST, MCP and the command line: ${config.publicUrl}/docs`,
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
    logger.info(
      { signal, graceMs: config.shutdownGraceMs, readinessDelayMs: config.shutdownReadinessDelayMs },
      'shutting down: not ready any more, accepting connections for the readiness delay, finishing requests and jobs in flight',
    );
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
