import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { closeServer, readBody, startHttpsServer } from '../../support/localServers.js';
import { SITE_VISITS, type SiteVisit } from './siteVisits.js';

/** One request a fake received. */
export interface ReceivedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A request as a fake sees it: its body read as JSON, or kept as text when it is not JSON (the fake refuses it as the provider would). */
export async function receivedCall(req: IncomingMessage, origin: string): Promise<ReceivedCall> {
  const raw = (await readBody(req)).toString('utf8');
  const url = new URL(req.url ?? '/', origin);
  let body: unknown = raw;
  try {
    body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    // kept as text
  }
  return { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
}

/** An answer: JSON (or text when the body is a string), or none at all (a provider that hangs). */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> } | { hang: true };

/**
 * The shared part of the local analytics providers: an https server on 127.0.0.1 (the adapters reach providers through
 * the SafeFetcher, https only) that records every call and answers from the provider's protocol, unless a failure was
 * queued for the next data calls.
 */
export abstract class FakeAnalyticsServer {
  readonly calls: ReceivedCall[] = [];
  /** The visits the provider recorded; its answers count these. */
  visits: readonly SiteVisit[] = SITE_VISITS;
  origin = '';
  private server: Server | undefined;
  private readonly failures: Reply[] = [];
  private change: ((body: unknown) => unknown) | undefined;

  protected async listen(): Promise<void> {
    const { server, port } = await startHttpsServer((req, res) => void this.handle(req, res));
    this.server = server;
    this.origin = `https://127.0.0.1:${port}`;
  }

  /** The next data calls get these answers instead, in order. */
  fail(...replies: Reply[]): void {
    this.failures.push(...replies);
  }

  /** From now on, every data answer's body passes through `change` first (a field added or left out, as another version of the provider might send). */
  changeAnswers(change: (body: unknown) => unknown): void {
    this.change = change;
  }

  /** Calls to the provider's data endpoints. */
  dataCalls(): ReceivedCall[] {
    return this.calls.filter((call) => this.isDataCall(call));
  }

  reset(): void {
    this.calls.length = 0;
    this.failures.length = 0;
    this.change = undefined;
    this.visits = SITE_VISITS;
  }

  close(): Promise<void> {
    return closeServer(this.server!);
  }

  protected abstract isDataCall(call: ReceivedCall): boolean;
  protected abstract answer(call: ReceivedCall): Reply;

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call = await receivedCall(req, this.origin);
    this.calls.push(call);
    const isData = this.isDataCall(call);
    const reply = (isData ? this.failures.shift() : undefined) ?? this.changed(this.answer(call), isData);
    if ('hang' in reply) return;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const type = typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    res.writeHead(reply.status, { 'content-type': type, ...reply.headers }).end(text);
  }

  private changed(reply: Reply, isData: boolean): Reply {
    if (!isData || this.change === undefined || 'hang' in reply || reply.status !== 200) return reply;
    return { ...reply, body: this.change(reply.body) };
  }
}

export const json = (status: number, body: unknown): Reply => ({ status, body });
