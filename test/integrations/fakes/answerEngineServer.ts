import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from '../../support/localServers.js';

/** One request the fake received, with its JSON body as the provider's documentation describes it. */
export interface RecordedRequest<Body> {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** A raw HTTP answer (errors, odd payloads), or no answer at all (a timeout). */
export type RawReply = { status: number; body: unknown; headers?: Record<string, string> } | { hang: true };

/** What an engine answers, in words: each fake turns it into its provider's real payload. */
export interface ScriptedAnswer {
  text: string;
  /** The sources the answer cites, in order. */
  citations?: Array<{ url: string; title?: string }>;
  /** Sources the engine read but did not cite (they must not count as citations). */
  retrieved?: Array<{ url: string; title?: string }>;
}

type Scripted = { raw: RawReply } | { answer: ScriptedAnswer };

/**
 * The shared part of the local answer-engine servers: records every request to the provider's endpoint, answers from a
 * queue the test fills (raw HTTP replies or scripted answers), else from `answerEvery` (default: a plain answer
 * without citations), so any number of checks succeed.
 */
export abstract class FakeProvider<Body> {
  readonly requests: RecordedRequest<Body>[] = [];
  baseUrl = '';
  /** Most requests answered at the same time, for concurrency limits. */
  maxInFlight = 0;
  private inFlight = 0;
  private held: Promise<void> | undefined;
  private server: Server | undefined;
  private readonly queue: Array<Scripted | ((request: RecordedRequest<Body>) => Scripted)> = [];
  private every: (question: string, request: RecordedRequest<Body>) => ScriptedAnswer = () => ({ text: 'A plain answer without sources.' });
  private change: ((payload: unknown) => unknown) | undefined;

  /** The base URL path the provider's API lives under (e.g. `/v1`). */
  protected abstract readonly basePath: string;
  /** Whether a request is a call to the provider's answer endpoint. */
  protected abstract isEndpoint(method: string, path: string): boolean;
  /** The provider's success payload for an answer. */
  protected abstract payload(answer: ScriptedAnswer, request: RecordedRequest<Body>): unknown;
  /** The question a request asks. */
  abstract questionOf(request: RecordedRequest<Body>): string;

  protected async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.baseUrl = `${this.origin}${this.basePath}`;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The next requests get these raw HTTP replies (or functions of the request). */
  reply(...replies: Array<RawReply | ((request: RecordedRequest<Body>) => RawReply)>): void {
    this.queue.push(...replies.map((r) => (typeof r === 'function' ? (request: RecordedRequest<Body>) => ({ raw: r(request) }) : { raw: r })));
  }

  /** The next requests get these answers, in the provider's real format. */
  answer(...answers: ScriptedAnswer[]): void {
    this.queue.push(...answers.map((answer) => ({ answer })));
  }

  /** Every request, once the queue is empty, gets this answer to its question. */
  answerEvery(answer: (question: string, request: RecordedRequest<Body>) => ScriptedAnswer): void {
    this.every = answer;
  }

  /** From now on, every answer's payload passes through `change` first (a field added or left out, as another version of the API might send). */
  changeAnswers(change: (payload: unknown) => unknown): void {
    this.change = change;
  }

  /** Requests wait, unanswered, until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  reset(): void {
    this.requests.length = 0;
    this.maxInFlight = 0;
    this.queue.length = 0;
    this.every = () => ({ text: 'A plain answer without sources.' });
    this.change = undefined;
  }

  async close(): Promise<void> {
    await closeServer(this.server!);
  }

  /** Other routes the provider serves (Gemini's redirect links); true when handled. */
  protected otherRoute(_req: IncomingMessage, _res: ServerResponse): boolean {
    return false;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = req.url ?? '/';
    if (!this.isEndpoint(req.method ?? 'GET', path)) {
      if (!this.otherRoute(req, res)) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    const request: RecordedRequest<Body> = { method: req.method ?? 'GET', path, headers: req.headers, body: JSON.parse(body.toString('utf8') || 'null') as Body };
    this.requests.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await this.held;
    this.inFlight--;
    const queued = this.queue.shift();
    const scripted = (typeof queued === 'function' ? queued(request) : queued) ?? { answer: this.every(this.questionOf(request), request) };
    if ('answer' in scripted) {
      const payload = this.payload(scripted.answer, request);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.change === undefined ? payload : this.change(payload)));
      return;
    }
    const raw = scripted.raw;
    if ('hang' in raw) return;
    res.writeHead(raw.status, { 'content-type': 'application/json', ...raw.headers }).end(typeof raw.body === 'string' ? raw.body : JSON.stringify(raw.body));
  }
}
