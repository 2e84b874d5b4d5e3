import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBody } from './localServers.js';

/** Headers about one connection, which a proxy does not pass on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name)));
}

/**
 * A round-robin reverse proxy on 127.0.0.1, as a load balancer in front of several instances, set up as production
 * runs one (Caddy in deploy/Caddyfile, or nginx with keep-alive upstreams):
 * - it adds X-Forwarded-For;
 * - it keeps its connections to the instances alive between requests, as nginx's upstream `keepalive` does, and
 *   closes one idle for 4 s, below the 5 s the service announces (`Keep-Alive: timeout=5`), as its
 *   `keepalive_timeout` must be set;
 * - it polls each instance's /readyz every `pollMs` and sends requests only to those whose last answer was 200
 *   (Caddy's `health_uri` and `health_interval`);
 * - like nginx's `proxy_next_upstream error`, it sends a request to the next instance when one refuses the
 *   connection (it never reached the instance) or, for a GET or HEAD only, when the connection is closed or reset
 *   before the answer. Anything else, a POST on a connection the instance closed among them, is a 502 whose reason
 *   is kept in `failures`.
 */
export class RoundRobinProxy {
  private next = 0;
  private polling = true;
  private readonly agent = new Agent({ keepAlive: true, timeout: 4000 });
  /** Whether each upstream, by port, answered 200 to its last /readyz poll; ready until polled. */
  private readonly ready = new Map<number, boolean>();
  private readonly pollers: Array<Promise<void>>;
  /** How many requests each upstream answered, by port. */
  readonly answeredBy = new Map<number, number>();
  /** Why each 502 the proxy itself answered was sent, so a test can show it. */
  readonly failures: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly upstreams: number[],
    pollMs: number,
  ) {
    for (const upstream of upstreams) this.ready.set(upstream, true);
    this.pollers = upstreams.map((upstream) => this.poll(upstream, pollMs));
  }

  static async start(port: number, upstreams: number[], { pollMs = 200 }: { pollMs?: number } = {}): Promise<RoundRobinProxy> {
    const server = createServer();
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const proxy = new RoundRobinProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, upstreams, pollMs);
    server.on('request', (req, res) => {
      void proxy.forward(req).then(
        ({ upstream, answer, body }) => {
          proxy.answeredBy.set(upstream, (proxy.answeredBy.get(upstream) ?? 0) + 1);
          res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers)).end(body);
        },
        (error: unknown) => {
          proxy.failures.push(`${req.method} ${req.url}: ${String(error)}`);
          res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `proxy: ${String(error)}` }));
        },
      );
    });
    return proxy;
  }

  /** Each upstream on its own, so that a slow answer from one does not delay noticing that another stops. */
  private async poll(upstream: number, pollMs: number): Promise<void> {
    while (this.polling) {
      try {
        const answer = await this.send(upstream, 'GET', '/readyz', {}, Buffer.alloc(0));
        await readBody(answer);
        this.ready.set(upstream, answer.statusCode === 200);
      } catch {
        this.ready.set(upstream, false);
      }
      await sleep(pollMs);
    }
  }

  /** Resolves with the answer's head; its body is still to be read. */
  private send(upstream: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port: upstream, method, path, headers, agent: this.agent }, resolve);
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  private async forward(req: IncomingMessage): Promise<{ upstream: number; answer: IncomingMessage; body: Buffer }> {
    const body = await readBody(req);
    const headers = { ...withoutHopByHop(req.headers), 'x-forwarded-for': '203.0.113.10' };
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    const candidates = this.upstreams.filter((upstream) => this.ready.get(upstream));
    if (candidates.length === 0) throw new Error('no instance is ready');
    const first = this.next++;
    let lastError: unknown;
    for (let tries = 0; tries < candidates.length; tries++) {
      const upstream = candidates[(first + tries) % candidates.length]!;
      let answer: IncomingMessage;
      try {
        answer = await this.send(upstream, req.method!, req.url!, headers, body);
      } catch (error) {
        // As nginx: a refused connection never reached the instance; a connection closed or reset before any answer
        // is retried only when repeating the request is harmless.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ECONNREFUSED' && !(idempotent && (code === 'ECONNRESET' || code === 'EPIPE'))) throw error;
        lastError = error;
        continue;
      }
      // Once an answer has begun, it is passed on or fails: nothing is sent twice.
      return { upstream, answer, body: await readBody(answer) };
    }
    throw lastError;
  }

  async close(): Promise<void> {
    this.polling = false;
    await Promise.all(this.pollers);
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(() => resolve(undefined)));
  }
}
