import { once } from 'node:events';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Express } from 'express';
import packageJson from '../package.json' with { type: 'json' };
import { answerClientErrors, createHttpApp, Lifecycle } from '../adapters/http.js';
import { stopServing } from '../adapters/httpStop.js';
import type { DatabaseHandle } from '../db/database.js';
import { CounterIngest } from './analytics/counter/ingest.js';
import { migrateToLatest } from '../db/migrate.js';
import { registry as defaultRegistry } from '../tools/index.js';
import type { Registry } from '../tools/registry.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { OAuthIssuer } from './oauth/issuer.js';
import { areaSweeps, JOB_HANDLERS } from './jobs/handlers.js';
import { JobWorker } from './jobs/worker.js';
import { forgetExpiredTasks } from './mcp/tasks.js';
import { openLimiterStore } from './limits/open.js';
import type { LimiterStore } from './limits/store.js';
import { Pipeline } from './pipeline/pipeline.js';
import { RateLimits } from './pipeline/rateLimits.js';
import type { Services } from './outsideServices.js';
import { createServices, type ProviderOptions } from './buildOutsideServices.js';

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
  /** Where limits and provider slots live: memory, Redis or PostgreSQL. */
  limiterStore: LimiterStore;
  /** This service as OAuth authorization server, with the signing keys every instance shares. */
  issuer: OAuthIssuer;
  /** The durable-job worker; it polls on its own once listening (JOBS_POLL_MS), tests drive it with drain(). */
  jobs: JobWorker;
  /** Counter events accepted by the collect endpoint wait here a moment; tests flush it instead of waiting. */
  counterIngest: CounterIngest;
  /** Starts listening on the configured host and port (port 0 picks a free one); resolves to the base URL. */
  listen(): Promise<string>;
  /**
   * A graceful stop: readiness fails at once and every answer carries `Connection: close`; connections are accepted
   * for the readiness delay (SHUTDOWN_READINESS_DELAY_MS, at most `graceMs`), then refused; requests in flight finish
   * and running jobs finish or are given back to the queue within `graceMs` (SHUTDOWN_GRACE_MS by default), then
   * providers, the limiter store and the database close.
   */
  close(graceMs?: number): Promise<void>;
}

export async function createService(options: ServiceOptions): Promise<Service> {
  const { config, database, clock } = options;
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const registry = options.registry ?? defaultRegistry;
  await migrateToLatest(database);
  const limiterStore = await openLimiterStore({
    redisUrl: config.redisUrl,
    database,
    onProblem: (message, error) => logger.error(error === undefined ? {} : { err: error }, message),
  });
  const providers = createServices(config, limiterStore, { db: database.db, clock }, options);
  const { services } = providers;
  if (!services.credentials.sealing) {
    logger.warn('SECRETS_KEY is not set: stored credentials (webhook signing secrets, Search Console tokens, the OAuth signing key) are kept unencrypted; see "Secrets at rest" in docs/guide/security.md');
  }
  const jobs = new JobWorker({
    db: database.db,
    clock,
    services,
    logger,
    handlers: JOB_HANDLERS,
    sweeps: [
      ...areaSweeps({ db: database.db, clock, services, logger, config }),
      // The MCP surface's own: expired tasks already read as not found; the sweep only keeps the table small.
      { name: 'mcp-task-expiry', everyMs: 3_600_000, run: () => forgetExpiredTasks(database.db, clock.now()) },
    ],
  });
  const issuer = new OAuthIssuer(database.db, clock, config.publicUrl, new Set(config.oauthRedirectSchemes), services.outbound, services.credentials);
  const pipeline = new Pipeline({
    db: database.db,
    clock,
    publicUrl: config.publicUrl,
    limits: new RateLimits(limiterStore),
    services,
    lookup: (operationId) => registry.tools.find((op) => op.operationId === operationId),
    accessToken: (token) => issuer.principal(token),
    onFault: (error, operation) => logger.error({ err: error, operationId: operation.operationId }, 'operation failed'),
  });
  const lifecycle = new Lifecycle(database.db);
  const counterIngest = new CounterIngest(database.db, logger);
  const app = createHttpApp({
    config,
    db: database.db,
    clock,
    registry,
    pipeline,
    issuer,
    logger,
    serverInfo: SERVER_INFO,
    limiterStore,
    lifecycle,
    credentials: services.credentials,
    counterIngest,
    outbound: services.outbound,
    timing: services.timing,
  });
  let server: Server | undefined;
  return {
    app,
    pipeline,
    registry,
    logger,
    services,
    limiterStore,
    issuer,
    jobs,
    counterIngest,
    async listen() {
      server = app.listen(config.port, config.host);
      answerClientErrors(server);
      await once(server, 'listening');
      jobs.start(config.jobsPollMs);
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    },
    async close(graceMs = config.shutdownGraceMs) {
      const deadline = Date.now() + graceMs;
      lifecycle.drain();
      const serving = server?.listening ? server : undefined;
      const [jobsStopped] = await Promise.all([
        jobs.stop(graceMs),
        serving && stopServing(serving, { readinessDelayMs: Math.min(config.shutdownReadinessDelayMs, graceMs), deadline }),
      ]);
      if (jobsStopped.released > 0) logger.warn({ released: jobsStopped.released }, 'jobs still running at the end of the grace were given back to the queue');
      // A job given back may still wait on a provider; its connection is not waited for past the grace.
      await Promise.race([providers.close(), sleep(Math.max(deadline - Date.now(), 0))]);
      await counterIngest.close();
      await limiterStore.close();
      await database.close();
    },
  };
}
