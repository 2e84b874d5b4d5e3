import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../support/localServers.js';
import { receivedCall, type ReceivedCall } from './analyticsServer.js';

/** One request a fake builder received. */
export type BuilderCall = ReceivedCall;

export interface BuilderReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): BuilderReply => ({ status, body, ...(headers ? { headers } : {}) });

/**
 * The shared part of the local site builders: a plain http server on 127.0.0.1 (the builders' endpoints are the
 * operator's settings, reached with fetch) that records every call, keeps its own clock (tests move it past a rate
 * window) and answers from the builder's protocol unless a failure was queued for a matching call.
 */
export abstract class FakeBuilderServer {
  readonly calls: BuilderCall[] = [];
  origin = '';
  private server: Server | undefined;
  private offsetMs = 0;
  private readonly failures: Array<{ matches: (call: BuilderCall) => boolean; reply: BuilderReply | { drop: true } }> = [];
  private change: ((body: unknown) => unknown) | undefined;

  protected async listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The builder's time. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** The next call `matches` accepts gets this answer instead (or its connection dropped unanswered). */
  failNext(matches: (call: BuilderCall) => boolean, failure: BuilderReply | { drop: true }): void {
    this.failures.push({ matches, reply: failure });
  }

  /** From now on, every successful answer's body passes through `change` first (a field added or left out, as another version of the API might send). */
  changeAnswers(change: ((body: unknown) => unknown) | undefined): void {
    this.change = change;
  }

  /** Forgets the queued failures and the change. */
  clearScript(): void {
    this.failures.length = 0;
    this.change = undefined;
  }

  close(): Promise<void> {
    return closeServer(this.server!);
  }

  protected abstract answer(call: BuilderCall): BuilderReply;

  /** How long the answer to this call waits after the builder acted on it (a builder slower than the caller's timeout). */
  protected delayOf(_call: BuilderCall): number {
    return 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call = await receivedCall(req, this.origin);
    this.calls.push(call);
    const queued = this.failures.findIndex((failure) => failure.matches(call));
    const answer = queued === -1 ? this.answer(call) : this.failures.splice(queued, 1)[0]!.reply;
    if ('drop' in answer) {
      res.socket?.destroy();
      return;
    }
    const delay = this.delayOf(call);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const body = this.change !== undefined && queued === -1 && answer.status >= 200 && answer.status < 300 ? this.change(answer.body) : answer.body;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers }).end(JSON.stringify(body));
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
