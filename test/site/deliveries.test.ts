import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sightlineReceiver } from '../../packages/site/src/express.js';
import { type Delivery, handleDelivery, MemorySeenDeliveries } from '../../packages/site/src/index.js';
import { article, destinationOf, ok, publish, writtenArticle } from '../publishing/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, readBody, startHttpsServer } from '../support/localServers.js';

/** What the service sent, to send the same bytes and headers again. */
interface Captured {
  raw: Buffer;
  headers: Record<string, string>;
}

const DELIVERY_HEADERS = /^(authorization|content-type|x-service-signature|x-service-event|webhook-id|webhook-timestamp|webhook-signature)$/;
const deliveryHeaders = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => DELIVERY_HEADERS.test(name) && typeof value === 'string')) as Record<string, string>;

/**
 * A customer's site on 127.0.0.1 over https, its endpoint built with the package: `/express`, `/express-raw` (after
 * express.raw) and `/express-json` (after express.json) through sightlineReceiver, `/web` through handleDelivery behind a small node:http to Request bridge.
 */
class Site {
  readonly articles: Delivery[] = [];
  readonly captured: Captured[] = [];
  private secret = '';
  private readonly seen: MemorySeenDeliveries;
  private constructor(
    readonly server: Server,
    readonly origin: string,
    private readonly now: () => number,
  ) {
    this.seen = new MemorySeenDeliveries({ now });
  }

  static async start(now: () => number): Promise<Site> {
    const { server, port } = await startHttpsServer();
    const site = new Site(server, `https://127.0.0.1:${port}`, now);
    const app = express();
    const receiver: RequestHandler = (req, res, next) => sightlineReceiver(site.options())(req, res, next);
    app.post('/express', receiver);
    // After express.json() the raw bytes are gone: the package checks the bearer token instead.
    app.post('/express-json', express.json({ limit: '5mb' }), receiver);
    app.post(
      '/express-raw',
      express.raw({ type: 'application/json', limit: '5mb' }),
      (req, _res, next) => {
        site.captured.push({ raw: req.body as Buffer, headers: deliveryHeaders(req.headers) });
        next();
      },
      receiver,
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/web') void site.bridge(req, res);
      else app(req, res);
    });
    return site;
  }

  /** The receiver's options: the destination's secret, the service's clock, and a seen-id store for the whole site. */
  private options() {
    return {
      secret: this.secret,
      now: this.now,
      seen: this.seen,
      onArticle: (delivery: Delivery) => {
        this.articles.push(delivery);
        return `${this.origin}/blog/${delivery.article.slug}`;
      },
    };
  }

  useSecret(secret: string): void {
    this.secret = secret;
  }

  /** node:http to web Request and back, as a runtime with web handlers does it. */
  private async bridge(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    this.captured.push({ raw, headers: deliveryHeaders(req.headers) });
    const request = new Request(`${this.origin}${req.url}`, { method: req.method, headers: deliveryHeaders(req.headers), body: raw });
    const response = await handleDelivery(request, this.options());
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Sends a captured delivery again, as an attacker who recorded it would. */
  async resend({ raw, headers }: Captured, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(this.url(path), { method: 'POST', headers, body: raw });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
}

let t: TestService;
let site: Site;
beforeAll(async () => {
  t = await TestService.start({ outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 5000, renderCheckDelayMs: 120_000 } });
  site = await Site.start(() => t.clock.now());
});
afterAll(async () => {
  await closeServer(site.server);
  await t.close();
});

/** A workspace whose active destination is the site's endpoint at `path`. */
async function destination(path: string): Promise<{ ws: TestWorkspace; destinationId: string }> {
  const ws = await t.workspace();
  const data = await ok(t, ws.key, 'POST', '/api/v1/destinations', { name: path, endpointUrl: site.url(path), siteUrl: site.origin });
  site.useSecret(String(data.signingSecret));
  return { ws, destinationId: String(data.destinationId) };
}

describe.each(['/express', '/express-raw', '/express-json', '/web'])('real deliveries to %s', (path) => {
  it('a test event is answered { ok: true, test: true } without onArticle', async () => {
    const { ws, destinationId } = await destination(path);
    const before = site.articles.length;
    await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
    await t.jobs.drain();
    expect(site.articles).toHaveLength(before);
    expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered_no_address', statusCode: 200 });
  });

  it('a published article is verified, typed and stored, and the service records the URL the package answered', async () => {
    const { ws, destinationId } = await destination(path);
    const contentId = await writtenArticle(t, ws);
    await publish(t, ws, contentId);
    await t.jobs.drain();
    const delivered = site.articles.at(-1)!;
    expect(delivered).toMatchObject({ event: 'article.published', timestamp: t.clock.now(), article: { id: contentId, slug: 'how-to-pick-a-crm-for-dentists', status: 'publish' } });
    expect(delivered.id).toMatch(/^dlv_/);
    const url = site.url('/blog/how-to-pick-a-crm-for-dentists');
    expect((await article(t, contentId)).url).toBe(url);
    expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered', statusCode: 200, url, statusMessage: 'Delivered' });
  });
});

describe('replayed and tampered deliveries', () => {
  it.each(['/express-raw', '/web'])('%s answers the same bytes and headers sent again as the first time without storing again, and refuses a changed body (401)', async (path) => {
    const { ws } = await destination(path);
    await publish(t, ws, await writtenArticle(t, ws, 'Dental marketing on a budget'));
    await t.jobs.drain();
    const captured = site.captured.at(-1)!;
    expect(captured.headers['x-service-event']).toBe('article.published');
    const stored = site.articles.length;

    const replay = await site.resend(captured, path);
    // Sightline resends an attempt whose answer was late with the same id: it gets the first answer, and nothing is stored twice.
    expect(replay).toEqual({ status: 200, body: { ok: true, url: site.url('/blog/dental-marketing-on-a-budget'), duplicate: true } });
    const tampered = await site.resend({ ...captured, raw: Buffer.from(captured.raw.toString('utf8').replace('Dental marketing', 'Cheap pills')) }, path);
    expect(tampered).toEqual({ status: 401, body: { ok: false, error: 'X-Service-Signature does not match the body and the secret' } });
    // Six minutes later the same delivery is outside the timestamp window.
    t.clock.advance(6 * 60_000);
    expect((await site.resend(captured, path)).status).toBe(401);
    expect(site.articles).toHaveLength(stored);
  });
});
