import express, { type NextFunction, type Request, type Response } from 'express';
import type { CallResult, Pipeline } from '../src/pipeline/pipeline.js';
import type { PolicyState } from '../src/pipeline/rateLimits.js';
import { BadInputError, type ServiceError, toServiceError } from '../src/errors.js';
import type { JsonSchema, RegisteredOperation, Registry } from '../tools/registry.js';
import { clientAddress } from '../src/web/security.js';

const BODY_LIMIT = '256kb';
export const API_PREFIX = '/api/v1';

/** IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers-09+): every policy, and the tightest one's state. */
export function setRateLimitHeaders(res: Response, limits: readonly PolicyState[]): void {
  if (limits.length === 0) return;
  res.setHeader('RateLimit-Policy', limits.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', '));
  const tightest = limits.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  res.setHeader('RateLimit', `"${tightest.name}";r=${Math.max(0, tightest.remaining)};t=${Math.ceil(tightest.resetMs / 1000)}`);
}

/**
 * A JSON answer written directly: express's res.json reads three app settings, sets the Content-Type through a MIME
 * look-up and parses it again to add the charset, on every call; on the hottest routes that was a measurable share.
 */
export function writeJson(res: Response, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  // Set here, not left to Node, so that a HEAD answer states the length too, as express's did.
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendError(res: Response, error: ServiceError, challenge = 'Bearer'): void {
  if (error.status === 401) res.setHeader('WWW-Authenticate', challenge);
  const body = error.toBody();
  // 429 (a limit is spent) and 503 (the limiter store is out of reach) say when to come back.
  if (body.retryAfterMs !== undefined) res.setHeader('Retry-After', String(Math.ceil(body.retryAfterMs / 1000)));
  writeJson(res, error.status, body);
}

function propertyType(schema: JsonSchema, name: string): unknown {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return properties?.[name]?.type;
}

function queryValue(name: string, value: unknown, schema: JsonSchema): unknown {
  if (typeof value !== 'string') throw BadInputError.field(name, 'must be given once, as a plain query value');
  const type = propertyType(schema, name);
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * GET inputs arrive as query strings: each value is coerced to the type the operation's schema declares. Built with
 * fromEntries so that a `__proto__` parameter stays a field (and is refused) instead of being swallowed by assignment.
 */
function queryInput(query: Request['query'], schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, queryValue(name, value, schema)]));
}

/**
 * A GET answer that carries an `etag` (computed by the operation from its content) gets it as the ETag header, and
 * a request whose If-None-Match names it gets 304 without a body: the data has not changed.
 */
function notModified(req: Request, res: Response, data: Record<string, unknown> | null): boolean {
  if (req.method !== 'GET' || data === null || typeof data.etag !== 'string') return false;
  res.setHeader('ETag', data.etag);
  const known = req.headers['if-none-match']?.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return known !== undefined && (known.includes('*') || known.includes(data.etag));
}

/**
 * The REST API is the same protected resource as /mcp, served by the same authorization server: a 401 names its
 * resource metadata (RFC 9728), so an OAuth client finds where to get a token, and `invalid_token` when one was sent.
 */
function bearerChallenge(req: Request, resourceMetadataUrl: string): string {
  return `Bearer ${req.headers.authorization === undefined ? '' : 'error="invalid_token", '}resource_metadata="${resourceMetadataUrl}"`;
}

function send(req: Request, res: Response, result: CallResult, resourceMetadataUrl: string): void {
  setRateLimitHeaders(res, result.limits);
  if (!result.ok) sendError(res, result.error, bearerChallenge(req, resourceMetadataUrl));
  else if (notModified(req, res, result.data)) res.status(304).end();
  else writeJson(res, 200, { data: result.data });
}

function route(pipeline: Pipeline, operation: RegisteredOperation, resourceMetadataUrl: string) {
  const readInput = (req: Request) => (operation.method === 'GET' ? queryInput(req.query, operation.inputJsonSchema) : (req.body ?? {}));
  return async (req: Request, res: Response) => {
    try {
      if (operation.scope === 'public') {
        send(req, res, await pipeline.callPublic(operation, clientAddress(req), readInput(req)), resourceMetadataUrl);
        return;
      }
      const principal = await pipeline.authenticate(req.headers.authorization);
      send(req, res, await pipeline.call(operation, principal, readInput(req)), resourceMetadataUrl);
    } catch (error) {
      sendError(res, toServiceError(error), bearerChallenge(req, resourceMetadataUrl));
    }
  };
}

/** Refuses a request body that is not JSON before the parser sees it. */
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is('application/json')) {
    res.status(415).json({ error: 'content-type: request bodies must be sent as application/json' });
    return;
  }
  next();
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
  /** entity.too.large: the parser's limit in bytes. */
  limit?: number;
}

/** Body-parser failures as `{ error }` JSON: malformed JSON 400, oversized 413, unsupported encodings 415. */
export function bodyErrorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const parserError = error as BodyParserError;
  switch (parserError.type) {
    case 'entity.parse.failed':
      res.status(400).json({ error: `body: is not valid JSON (${parserError.message ?? 'parse error'})` });
      return;
    case 'entity.too.large': {
      // Each parser has its own limit (the OAuth forms take 16 KB); its error carries it in bytes.
      const limit = parserError.limit === undefined ? BODY_LIMIT : `${Math.round(parserError.limit / 1024)}kb`;
      res.status(413).json({ error: `body: larger than the ${limit} limit` });
      return;
    }
    case 'encoding.unsupported':
    case 'charset.unsupported':
      res.status(415).json({ error: `content-type: ${parserError.message ?? 'unsupported encoding'}` });
      return;
    default:
      next(error);
  }
}

export const jsonBody = [requireJsonBody, express.json({ limit: BODY_LIMIT, type: 'application/json' })];

/** One route per operation, to be mounted at API_PREFIX, and JSON 404/405 answers for everything else under it. */
export function restRouter(registry: Registry, pipeline: Pipeline, resourceMetadataUrl: string): express.Router {
  const router = express.Router();
  const methodsByPath = new Map<string, string[]>();
  for (const operation of registry.operations) {
    const handler = route(pipeline, operation, resourceMetadataUrl);
    const localPath = operation.path.slice(API_PREFIX.length);
    if (operation.method === 'GET') router.get(localPath, handler);
    else router.post(localPath, ...jsonBody, handler);
    methodsByPath.set(operation.path, [...(methodsByPath.get(operation.path) ?? []), operation.method]);
  }
  router.use((req, res) => {
    const path = `${req.baseUrl}${req.path}`.replace(/\/+$/, '');
    const allowed = methodsByPath.get(path);
    if (allowed !== undefined) {
      res.setHeader('Allow', allowed.join(', '));
      res.status(405).json({ error: `method ${req.method} is not allowed on ${path}; use ${allowed.join(' or ')}` });
      return;
    }
    res.status(404).json({ error: `no route ${req.method} ${path}; the operations are listed at /api/v1/openapi.json` });
  });
  return router;
}
