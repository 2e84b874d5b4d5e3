import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Express } from 'express';
import packageJson from '../package.json' with { type: 'json' };
import { createHttpApp } from '../adapters/http.js';
import type { DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { registry as defaultRegistry } from '../tools/index.js';
import type { Registry } from '../tools/registry.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { OAuthIssuer } from './oauth/issuer.js';
import { runAutopilot } from './domain/content/autopilot.js';
import { JOB_HANDLERS } from './jobs/handlers.js';
import { JobWorker } from './jobs/worker.js';
import { Pipeline } from './pipeline/pipeline.js';
import { RateLimits } from './pipeline/rateLimits.js';
import type { Services } from './services.js';
import { createServices, type ProviderOptions } from './providers.js';
import { runDueChecks } from './visibility/checks/runs.js';

export const SERVER_INFO = { name: 'sightline', version: packageJson.version };

export interface ServiceOptions extends ProviderOptions {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  logger?: Logger;
  registry?: Registry;
}

export interface Service {
  app: Express;
  pipeline: Pipeline;
  registry: Registry;
  logger: Logger;
  services: Services;
  /** The durable-job worker; it polls on its own once listening (JOBS_POLL_MS), tests drive it with drain(). */
  jobs: JobWorker;
  /** Starts listening on the configured host and port (port 0 picks a free one); resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createService(options: ServiceOptions): Promise<Service> {
  const { config, database, clock } = options;
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const registry = options.registry ?? defaultRegistry;
  await migrateToLatest(database);
  const providers = createServices(config, options);
  const { services } = providers;
  const jobs = new JobWorker({
    db: database.db,
    clock,
    services,
    logger,
    handlers: JOB_HANDLERS,
    sweep: {
      everyMs: 60_000,
      run: async () => {
        await runAutopilot(database.db, clock, services, logger);
        await runDueChecks(database.db, clock, services, logger);
      },
    },
  });
  const issuer = new OAuthIssuer(database.db, clock, config.publicUrl, new Set(config.oauthRedirectSchemes), services.outbound);
  const pipeline = new Pipeline({
    db: database.db,
    clock,
    publicUrl: config.publicUrl,
    limits: new RateLimits(),
    services,
    lookup: (operationId) => registry.tools.find((op) => op.operationId === operationId),
    accessToken: (token) => issuer.principal(token),
    onFault: (error, operation) => logger.error({ err: error, operationId: operation.operationId }, 'operation failed'),
  });
  const app = createHttpApp({ config, db: database.db, clock, registry, pipeline, issuer, logger, serverInfo: SERVER_INFO });
  let server: Server | undefined;
  return {
    app,
    pipeline,
    registry,
    logger,
    services,
    jobs,
    async listen() {
      server = app.listen(config.port, config.host);
      await once(server, 'listening');
      jobs.start(config.jobsPollMs);
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    },
    async close() {
      await jobs.stop();
      if (server !== undefined) {
        server.closeIdleConnections();
        await new Promise<void>((resolve, reject) => server!.close((error) => (error ? reject(error) : resolve())));
      }
      await providers.close();
      await database.close();
    },
  };
}
