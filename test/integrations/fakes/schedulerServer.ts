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

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export abstract class FakeTool {
  readonly requests: SeenRequest[] = [];
  /** The next create is stored but its answer never arrives: the connection drops, as when a job dies mid-call. */
  loseNextCreateAnswer = false;
  protected server!: Server;
  port = 0;

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
    this.handle(req, res, url, body);
  }

  protected dropOrAnswer(res: ServerResponse, status: number, body: unknown): void {
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      res.socket?.destroy();
      return;
    }
    json(res, status, body);
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void;

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
