import { ServerResponse, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/clock.js';
import type { CounterIngest } from '../src/analytics/counter/ingest.js';
import type { Config } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import type { LimiterStore } from '../src/limits/store.js';
import type { CredentialSealer } from '../src/credentials/sealed.js';
import type { SafeFetcher } from '../src/outbound/safeFetch.js';
import type { Timing } from '../src/outsideServices.js';
import type { Pipeline } from '../src/pipeline/pipeline.js';
import { developmentPrincipal } from '../src/pipeline/authenticate.js';
import { dashboardRouter } from '../src/web/dashboard.js';
import { oauthEndpoints } from '../src/web/oauthEndpoints.js';
import type { OAuthIssuer } from '../src/oauth/issuer.js';
import type { Registry } from '../tools/registry.js';
import { collectRouter } from './collect.js';
import { crawlReportRouter } from './crawlReports.js';
import { McpAdapter } from './mcp.js';
import { buildOpenApi } from './openapi.js';
import { API_PREFIX, bodyErrorHandler, jsonBody, restRouter, sendError } from './rest.js';

function hostName(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined) return undefined;
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return hostHeader.split(':')[0]?.toLowerCase();
}

/** DNS-rebinding protection: a page on another site that resolves its name to us is refused by Host. */
function validateHost(allowed: readonly string[]) {
  const hosts = new Set(allowed.map((h) => h.toLowerCase()));
  return (req: Request, res: Response, next: NextFunction) => {
    const host = hostName(req.headers.host);
    if (host === undefined || !hosts.has(host)) {
      res.status(403).json({ error: `host: ${req.headers.host ?? '(none)'} is not served here; set PUBLIC_URL or ALLOWED_HOSTS to accept it` });
      return;
    }
    next();
  };
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * HSTS for a service published on https: for a year, browsers reach it over https only, so no later visit can be
 * downgraded to plain http on the way. Without includeSubDomains: the service often runs on a subdomain of a company
 * domain whose other hosts (an intranet, a printer) may still serve plain http, and a browser would refuse them too.
 * Browsers honour the header only on a valid https connection, so it is harmless on every answer.
 */
function strictTransportSecurity(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Strict-Transport-Security', 'max-age=31536000');
  next();
}

/**
 * A browser request from a page on a foreign origin is refused (403). Same-origin requests (the Origin names the
 * Host, which is itself validated) and allowlisted origins pass; requests without Origin (agents, curl) pass.
 */
function validateOrigin(allowed: readonly string[]) {
  const origins = new Set(allowed);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin) && originHost(origin) !== req.headers.host) {
      res.status(403).json({ error: `origin: ${origin} is not allowed; add it to ALLOWED_ORIGINS to accept it` });
      return;
    }
    next();
  };
}

/**
 * CORS for /mcp: browser-based MCP clients on an allowed origin may call it. Preflight is answered before any
 * authentication; the challenge and session headers are exposed to the page.
 */
function mcpCors(allowed: readonly string[]) {
  const origins = new Set(allowed);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && (origins.has(origin) || originHost(origin) === req.headers.host)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, MCP-Protocol-Version');
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.setHeader(
        'Access-Control-Allow-Headers',
        // The 2026-07-28 routing headers besides the older ones; no tool declares an Mcp-Param-* header.
        'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Output-Schemas',
      );
      res.status(204).end();
      return;
    }
    next();
  };
}

/**
 * Whether this instance takes new work. Once draining (a SIGTERM), /readyz fails so that the load balancer sends no
 * more, and every response still to be sent carries `Connection: close`, so keep-alive clients reconnect elsewhere.
 */
export class Lifecycle {
  private draining = false;
  private readonly onDrain: (() => void)[] = [];

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs when draining starts: for what never ends on its own, such as a stream a client keeps open. */
  whenDraining(action: () => void): void {
    this.onDrain.push(action);
  }

  drain(): void {
    this.draining = true;
    for (const action of this.onDrain) action();
  }

  /**
   * Every response of `app` is checked as it writes its head, so one still in flight when draining starts gets
   * `Connection: close` too. Checking there, on the app's response prototype, replaces a set of responses kept with a
   * close listener each, which cost a measurable share of a small request.
   */
  watch(app: express.Express): void {
    const lifecycle = this;
    const { writeHead } = ServerResponse.prototype;
    Object.defineProperty(app.response, 'writeHead', {
      value: function writeHeadClosingWhenDraining(this: ServerResponse, ...args: unknown[]): ServerResponse {
        if (lifecycle.draining && !this.headersSent) this.setHeader('Connection', 'close');
        return Reflect.apply(writeHead, this, args) as ServerResponse;
      },
    });
  }

  /** Ready: not draining, and the database answers. */
  readiness = async (_req: Request, res: Response): Promise<void> => {
    if (this.draining) {
      res.status(503).json({ ready: false, reason: 'shutting down' });
      return;
    }
    try {
      await sql`select 1`.execute(this.db);
      res.json({ ready: true });
    } catch {
      res.status(503).json({ ready: false, reason: 'the database does not answer' });
    }
  };
}

/** What Node's HTTP parser refuses before any route sees the request, as Node's own default answer would say it. */
function clientErrorStatus(code: string | undefined): { status: number; error: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: 'headers: the request line and headers are larger than this server accepts (16 KB)' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, error: 'body: its chunk extensions are larger than this server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: 'request: not received in time' };
    default:
      return { status: 400, error: 'request: not a well-formed HTTP request' };
  }
}

/**
 * Requests the parser refuses (431 for oversized headers or URL, 400 for malformed HTTP) get the JSON error envelope
 * too: Node's default answer has an empty body. A reset connection gets nothing, as with Node.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, error: message } = clientErrorStatus(error.code);
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

export interface HttpAppDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  registry: Registry;
  pipeline: Pipeline;
  issuer: OAuthIssuer;
  logger: Logger;
  serverInfo: { name: string; version: string };
  limiterStore: LimiterStore;
  lifecycle: Lifecycle;
  credentials: CredentialSealer;
  /** Where the collect endpoint hands accepted counter events. */
  counterIngest: CounterIngest;
  /** Requests to addresses others chose: the dashboard checks a web-analytics connection through it. */
  outbound: SafeFetcher;
  /** The outside calls' time limits: the dashboard reads a CMS destination's connection with the kind's own. */
  timing: Timing;
}

export function createHttpApp({
  config,
  db,
  clock,
  registry,
  pipeline,
  issuer,
  logger,
  serverInfo,
  limiterStore,
  lifecycle,
  credentials,
  counterIngest,
  outbound,
  timing,
}: HttpAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  lifecycle.watch(app);
  if (new URL(config.publicUrl).protocol === 'https:') app.use(strictTransportSecurity);
  app.use(validateHost(config.allowedHosts));

  // The API surfaces first: express matches every layer in front of a route against each request's path.
  const openApi = buildOpenApi(registry);
  app.get(`${API_PREFIX}/openapi.json`, (_req, res) => {
    res.json(openApi);
  });
  app.use(API_PREFIX, restRouter(registry, pipeline, issuer.resourceMetadataUrl));
  // Next the tracking loader's events: one request per page view of every customer site, the most frequent of all.
  app.use(collectRouter({ db, clock, limiterStore, limits: config.counterLimits, ingest: counterIngest }));

  const mcp = new McpAdapter(
    registry,
    pipeline,
    serverInfo,
    issuer,
    { db, clock },
    { pollMs: config.mcpListenPollMs, onError: (error) => logger.error({ err: error }, 'an MCP listen stream failed to look for changes') },
    config.mcpDevNoAuth ? () => developmentPrincipal(db) : undefined,
  );
  // Open listen streams would hold the stop until its deadline: they end first, and their clients listen elsewhere.
  lifecycle.whenDraining(() => mcp.endListenStreams());
  if (config.mcpDevNoAuth) logger.warn('MCP_DEV_NO_AUTH is set: /mcp accepts requests without credentials (development only)');
  app.use('/mcp', validateOrigin(config.allowedOrigins), mcpCors(config.allowedOrigins));
  app.post('/mcp', ...jsonBody, (req: Request, res: Response) => mcp.handle(req, res));
  app.all('/mcp', (req, res) => {
    // Stateless server: no session stream to open (GET) or close (DELETE).
    res.setHeader('Allow', 'POST');
    res.status(405).json({ error: `method ${req.method} is not allowed on /mcp; this server is stateless, use POST` });
  });

  // Liveness stays up while draining: the process is healthy, only no longer taking new work.
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', lifecycle.readiness);

  const deviceStart = registry.get('post_auth_device_start');
  if (deviceStart?.scope !== 'public') throw new Error('the registry has no public post_auth_device_start operation');
  app.use(oauthEndpoints({ db, clock, issuer, startDeviceLogin: (address, input) => pipeline.callPublic(deviceStart, address, input) }));

  app.use(crawlReportRouter({ db, clock, limiterStore }));

  app.use(dashboardRouter({ db, clock, config, pipeline, issuer, limiterStore, credentials, outbound, timing, registry, logger }));

  app.use((req, res) => {
    res.status(404).json({ error: `no route ${req.method} ${req.path}` });
  });
  app.use(bodyErrorHandler);
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // A typed error outside the pipeline (the limiter store out of reach on a page or a report) keeps its status.
    if (error instanceof ServiceError && error.status !== 500) {
      if (!res.headersSent) sendError(res, error);
      return;
    }
    logger.error({ err: error }, 'unhandled request error');
    if (!res.headersSent) res.status(500).json({ error: 'internal error; the failure was logged' });
  });
  return app;
}
