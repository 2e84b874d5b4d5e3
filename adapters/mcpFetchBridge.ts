import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Request, Response } from 'express';
import type { AuthInfo, McpHandlerRequestOptions } from '@modelcontextprotocol/server';

type FetchHandler = (request: globalThis.Request, options: McpHandlerRequestOptions) => Promise<globalThis.Response>;

/**
 * Serves an Express request through a web-standard MCP handler. The body goes across as the JSON express already
 * parsed, never re-serialised: a body nested too deep for JSON.stringify (which the pipeline refuses with a 400 naming
 * where) would otherwise fail here as an internal error, which is what the SDK's own Node adapter does. Streams
 * (SSE) are piped with backpressure and end when the client goes away.
 */
export async function serveThroughFetch(handler: FetchHandler, req: Request, res: Response, authInfo: AuthInfo): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
  }
  const url = new URL(req.originalUrl, `${req.protocol}://${req.headers.host ?? 'localhost'}`);
  const request = new globalThis.Request(url, { method: req.method, headers, signal: abort.signal });
  const response = await handler(request, { authInfo, parsedBody: req.body });
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), res).catch((error: unknown) => {
    // The client closing an open stream (SSE) is how a 2026-07-28 client cancels; nothing is wrong then.
    if (!abort.signal.aborted) throw error;
  });
}
