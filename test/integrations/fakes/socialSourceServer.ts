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
  /** No answer at all: the request waits until the client gives up. */
  hang?: true;
}

/** A local https server playing a source: `answer` sees each request (also kept in `received`) and says what to send. */
export async function startSourceServer(answer: (request: Received) => Reply | Promise<Reply>) {
  const received: Received[] = [];
  const { server, port } = await startHttpsServer(async (req, res) => {
    const request: Received = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', `https://127.0.0.1:${port}`), headers: req.headers, body: (await readBody(req)).toString('utf8') };
    received.push(request);
    const reply = await answer(request);
    if (reply.hang === true) return;
    const body = Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...reply.headers };
    if (reply.gzip === true) headers['content-encoding'] = 'gzip';
    if (reply.deflate === true) headers['content-encoding'] = 'deflate';
    res.writeHead(reply.status ?? 200, headers);
    res.end(reply.gzip === true ? gzipSync(body) : reply.deflate === true ? deflateSync(body) : body);
  });
  return { base: `https://127.0.0.1:${port}`, received, close: () => closeServer(server) };
}

/**
 * The shared part of the vendor fakes of the social sources: the source's protocol on a local https server, with
 * failures a test queues for the next search calls (sign-ins and tokens still answer) and answers it can change.
 */
export abstract class FakeSocialSource {
  base = '';
  received: Received[] = [];
  private close_: (() => Promise<void>) | undefined;
  private readonly failures: Reply[] = [];
  private change: ((json: unknown) => unknown) | undefined;

  protected async listen(): Promise<void> {
    const server = await startSourceServer((request) => this.reply(request));
    this.base = server.base;
    this.received = server.received;
    this.close_ = server.close;
  }

  /** The next search calls get these answers instead, in order. */
  fail(...replies: Reply[]): void {
    this.failures.push(...replies);
  }

  /** From now on, every search answer passes through `change` first (a field added or left out, as another version of the API might send). */
  changeAnswers(change: (json: unknown) => unknown): void {
    this.change = change;
  }

  /** The search calls received, in order. */
  searches(): Received[] {
    return this.received.filter((request) => this.isSearch(request));
  }

  reset(): void {
    this.received.length = 0;
    this.failures.length = 0;
    this.change = undefined;
  }

  close(): Promise<void> {
    return this.close_?.() ?? Promise.resolve();
  }

  protected abstract isSearch(request: Received): boolean;
  protected abstract answer(request: Received): Reply;

  private reply(request: Received): Reply {
    if (!this.isSearch(request)) return this.answer(request);
    const failure = this.failures.shift();
    if (failure !== undefined) return failure;
    const reply = this.answer(request);
    return this.change === undefined || (reply.status ?? 200) !== 200 ? reply : { ...reply, json: this.change(reply.json) };
  }
}
