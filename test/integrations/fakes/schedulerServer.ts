// The shared part of the local scheduling tools (Postiz, Buffer, Typefully) speaking their APIs over https.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { closeServer, readBody, startHttpsServer } from '../../support/localServers.js';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** An answer a test scripts in place of the tool's own: a JSON error (with its headers), or the connection dropped unanswered. */
export type ToolReply = { status: number; body: unknown; headers?: Record<string, string> } | { drop: true };

export abstract class FakeTool {
  readonly requests: SeenRequest[] = [];
  /** The next create is stored but its answer never arrives: the connection drops, as when a job dies mid-call. */
  loseNextCreateAnswer = false;
  protected server!: Server;
  port = 0;
  private readonly scripted: ToolReply[] = [];
  private change: ((body: unknown) => unknown) | undefined;

  /** The next requests get these answers instead, in order. */
  fail(...replies: ToolReply[]): void {
    this.scripted.push(...replies);
  }

  /** From now on, every successful answer's body passes through `change` first (a field added or left out, as another version of the API might send). */
  changeAnswers(change: (body: unknown) => unknown): void {
    this.change = change;
  }

  /** Forgets the requests, the scripted answers and the change. */
  resetScript(): void {
    this.requests.length = 0;
    this.scripted.length = 0;
    this.change = undefined;
  }

  protected async listen(): Promise<void> {
    const started = await startHttpsServer((req, res) => {
      void this.receive(req, res);
    });
    this.server = started.server;
    this.port = started.port;
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = (await readBody(req)).toString('utf8');
    const body = text === '' ? null : (JSON.parse(text) as unknown);
    const url = new URL(req.url ?? '/', 'https://localhost');
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body });
    const scripted = this.scripted.shift();
    if (scripted === undefined) this.handle(req, res, url, body);
    else if ('drop' in scripted) res.socket?.destroy();
    else this.json(res, scripted.status, scripted.body, scripted.headers);
  }

  protected json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const sent = this.change !== undefined && status >= 200 && status < 300 ? this.change(body) : body;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(sent));
  }

  protected dropOrAnswer(res: ServerResponse, status: number, body: unknown): void {
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      res.socket?.destroy();
      return;
    }
    this.json(res, status, body);
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void;

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
