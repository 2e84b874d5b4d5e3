import type { IncomingHttpHeaders } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { closeServer, readBody, startHttpsServer } from '../../support/localServers.js';

export interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** Compressed as Stack Exchange sends every answer. */
  gzip?: boolean;
  deflate?: boolean;
}

/** A local https server playing a source: `answer` sees each request (also kept in `received`) and says what to send. */
export async function startSourceServer(answer: (request: Received) => Reply | Promise<Reply>) {
  const received: Received[] = [];
  const { server, port } = await startHttpsServer(async (req, res) => {
    const request: Received = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', `https://127.0.0.1:${port}`), headers: req.headers, body: (await readBody(req)).toString('utf8') };
    received.push(request);
    const reply = await answer(request);
    const body = Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...reply.headers };
    if (reply.gzip === true) headers['content-encoding'] = 'gzip';
    if (reply.deflate === true) headers['content-encoding'] = 'deflate';
    res.writeHead(reply.status ?? 200, headers);
    res.end(reply.gzip === true ? gzipSync(body) : reply.deflate === true ? deflateSync(body) : body);
  });
  return { base: `https://127.0.0.1:${port}`, received, close: () => closeServer(server) };
}
