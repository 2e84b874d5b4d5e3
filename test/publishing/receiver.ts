import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { closeServer, readBody, startHttpsServer } from '../support/localServers.js';


export interface WebhookBody {
  event: string;
  timestamp: number;
  article: Record<string, unknown> & { id: string; title: string; slug: string; html: string; publishedAt: number; status: string };
}

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: WebhookBody;
}

/** How the receiver answers one delivery. */
export interface Reply {
  status?: number;
  /** Sent as JSON; leave out for an empty body. */
  json?: unknown;
  headers?: Record<string, string>;
  /** Answer only after this long (a slow receiver). */
  delayMs?: number;
  /** Never answer: the request stays open until the receiver closes. */
  hang?: boolean;
}

const REQUIRED_ARTICLE_FIELDS = ['id', 'title', 'slug', 'html', 'publishedAt', 'status'] as const;

/**
 * A customer's receiver on 127.0.0.1 over https (the test CA is trusted through NODE_EXTRA_CA_CERTS), checking every
 * delivery as the specification's receiver rules say: HMAC over the raw body compared in constant time, the bearer
 * secret, the event header against the body, the body's shape, and the Standard Webhooks signature. A delivery that
 * fails a check is refused with 401 and its reason kept in `problems`. It also serves pages for render checks.
 */
export class Receiver {
  readonly received: ReceivedDelivery[] = [];
  readonly problems: string[] = [];
  /** Called with each delivery as it arrives, before it is answered. */
  onDelivery: ((delivery: ReceivedDelivery) => void) | undefined;
  private readonly secrets = new Map<string, string>();
  private readonly replies = new Map<string, Reply[]>();
  private readonly pages = new Map<string, { status: number; html: string; contentType: string }>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly clock: () => number,
  ) {}

  /** `clock`: the receiver's own time, for the Standard Webhooks replay window; tests pass the service's test clock. */
  static async start(options: { host?: string; clock?: () => number } = {}): Promise<Receiver> {
    const { server, port } = await startHttpsServer();
    const origin = `https://${options.host ?? '127.0.0.1'}:${port}`;
    const receiver = new Receiver(server, origin, options.clock ?? Date.now);
    server.on('request', (req, res) => void receiver.handle(req, res));
    return receiver;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** The endpoint at `path` verifies deliveries with this destination's signing secret. */
  register(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The next answers of the endpoint at `path`, in order; after them it answers 200 `{ ok: true }` without a URL. */
  reply(path: string, ...replies: Reply[]): void {
    this.replies.set(path, [...(this.replies.get(path) ?? []), ...replies]);
  }

  page(path: string, html: string, status = 200, contentType = 'text/html; charset=utf-8'): void {
    this.pages.set(path, { status, html, contentType });
  }

  at(path: string): ReceivedDelivery[] {
    return this.received.filter((d) => d.path === path);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const raw = await readBody(req);
    if (req.method === 'GET') {
      const page = this.pages.get(path);
      res.writeHead(page?.status ?? 404, { 'content-type': page?.contentType ?? 'text/html' }).end(page?.html ?? '<h1>Not found</h1>');
      return;
    }
    const problem = this.check(path, req.headers, raw);
    if (problem !== undefined) {
      this.problems.push(`${path}: ${problem}`);
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: problem }));
      return;
    }
    const delivery = { path, headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) as WebhookBody };
    this.received.push(delivery);
    this.onDelivery?.(delivery);
    const reply = this.replies.get(path)?.shift() ?? { json: { ok: true } };
    if (reply.hang) return;
    if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const headers = { ...(reply.json === undefined ? {} : { 'content-type': 'application/json' }), ...reply.headers };
    res.writeHead(reply.status ?? 200, headers).end(reply.json === undefined ? undefined : JSON.stringify(reply.json));
  }

  /** The receiver rules; undefined when the delivery passes all of them. */
  private check(path: string, headers: IncomingHttpHeaders, raw: Buffer): string | undefined {
    const secret = this.secrets.get(path);
    if (secret === undefined) return `no destination registered at ${path}`;
    if (headers['content-type'] !== 'application/json') return `content-type is ${headers['content-type']}`;
    if (headers.authorization !== `Bearer ${secret}`) return 'the bearer token is not the signing secret';
    const signature = String(headers['x-service-signature'] ?? '');
    if (!/^sha256=[0-9a-f]{64}$/.test(signature)) return `malformed X-Service-Signature ${signature}`;
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
    if (!timingSafeEqual(Buffer.from(signature), expected)) return 'X-Service-Signature does not match the raw body';
    // The standard verifier checks the 5-minute replay window against Date.now(): it reads the receiver's clock instead.
    const realNow = Date.now;
    Date.now = this.clock;
    try {
      new Webhook(secret).verify(raw.toString('utf8'), headers as Record<string, string>);
    } catch (error) {
      return `Standard Webhooks verification failed: ${(error as Error).message}`;
    } finally {
      Date.now = realNow;
    }
    if (headers['webhook-id'] === undefined) return 'no webhook-id';
    let body: Partial<WebhookBody>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Partial<WebhookBody>;
    } catch {
      return 'the body is not JSON';
    }
    if (typeof body.event !== 'string' || body.event !== headers['x-service-event']) return `X-Service-Event ${headers['x-service-event']} is not the body's event ${body.event}`;
    if (!['article.published', 'article.updated', 'test'].includes(body.event)) return `unknown event ${body.event}`;
    if (typeof body.timestamp !== 'number') return 'timestamp is not a number';
    const article = body.article;
    if (article === undefined || article === null || typeof article !== 'object') return 'no article object';
    for (const field of REQUIRED_ARTICLE_FIELDS) if (article[field] === undefined) return `article.${field} is missing`;
    if (typeof article.publishedAt !== 'number') return 'article.publishedAt is not epoch milliseconds';
    if (article.status !== 'publish' && article.status !== 'draft') return `article.status is ${article.status}`;
    return undefined;
  }
}
