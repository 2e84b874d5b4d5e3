import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type CrawlReportOptions, pathOf, reportCrawlerVisit } from './crawl.js';
import { receive, type ReceiverOptions } from './receive.js';

/** Articles with their HTML and Markdown are far larger than express.raw's 100 kB default. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

async function readRaw(req: Request): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    size += bytes.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(bytes);
  }
  const raw = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    raw.set(chunk, at);
    at += chunk.length;
  }
  return raw;
}

/**
 * The delivery endpoint for express (4 or 5): `app.post('/sightline', sightlineReceiver({ secret, onArticle }))`.
 * It reads the raw body itself, or takes the Buffer of an `express.raw({ type: 'application/json' })` before it; after
 * `express.json()` only the parsed body is left, and the bearer token is checked instead of the signatures. Answers as
 * handleDelivery does; an error of onArticle goes to express's error handling (`next(error)`).
 */
export function sightlineReceiver(options: ReceiverOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const parsed: unknown = req.body;
      let body: { rawBody: Uint8Array } | { parsedBody: unknown };
      if (parsed instanceof Uint8Array) body = { rawBody: parsed };
      else if (parsed !== undefined && req.readableEnded) body = { parsedBody: parsed };
      else {
        const raw = await readRaw(req);
        if (raw === undefined) {
          res.status(413).json({ ok: false, error: `the body is larger than ${MAX_BODY_BYTES} bytes` });
          return;
        }
        body = { rawBody: raw };
      }
      const reply = await receive(options, body, req.headers);
      res.status(reply.status).json(reply.body);
    })().catch(next);
  };
}

/**
 * Middleware reporting AI crawlers' requests to Sightline (`app.use(crawlerReports({ sightlineUrl, secret }))`); it
 * calls next() at once and never waits for the report. People's browsers and other bots are not reported.
 */
export function crawlerReports(options: CrawlReportOptions): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    void reportCrawlerVisit(options, { userAgent: req.get('user-agent'), path: pathOf(req.originalUrl) });
    next();
  };
}
