import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './localServers.js';

/**
 * A round-robin reverse proxy on 127.0.0.1, as a load balancer in front of several instances: it adds
 * X-Forwarded-For, and like nginx's `proxy_next_upstream error` it sends a request to the next instance when one
 * refuses the connection (a stopped instance) or, for a GET or HEAD, resets it before answering (a connection still
 * in the listen backlog when an instance closes its listener), so a client never sees that.
 */
export class RoundRobinProxy {
  private next = 0;
  /** How many requests each upstream answered, by port. */
  readonly answeredBy = new Map<number, number>();
  /** Why each 502 the proxy itself answered was sent, so a test can show it. */
  readonly failures: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly upstreams: number[],
  ) {}

  static async start(port: number, upstreams: number[]): Promise<RoundRobinProxy> {
    const server = createServer();
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const proxy = new RoundRobinProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, upstreams);
    server.on('request', (req, res) => {
      void proxy.forward(req).then(
        ({ upstream, answer, body }) => {
          proxy.answeredBy.set(upstream, (proxy.answeredBy.get(upstream) ?? 0) + 1);
          const headers = { ...answer.headers };
          delete headers.connection;
          res.writeHead(answer.statusCode ?? 502, headers).end(body);
        },
        (error: unknown) => {
          proxy.failures.push(`${req.method} ${req.url}: ${String(error)}`);
          res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `proxy: ${String(error)}` }));
        },
      );
    });
    return proxy;
  }

  private async forward(req: IncomingMessage): Promise<{ upstream: number; answer: IncomingMessage; body: Buffer }> {
    const body = await readBody(req);
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    let lastError: unknown;
    for (let tries = 0; tries < this.upstreams.length; tries++) {
      const upstream = this.upstreams[this.next++ % this.upstreams.length]!;
      let answer: IncomingMessage;
      try {
        answer = await new Promise<IncomingMessage>((resolve, reject) => {
          const outgoing = request(
            { host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': '203.0.113.10', connection: 'close' }, agent: false },
            resolve,
          );
          outgoing.on('error', reject);
          outgoing.end(body);
        });
      } catch (error) {
        // As nginx: a refused connection never reached the instance; a reset before any answer is retried only when
        // repeating the request is harmless.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ECONNREFUSED' && !(code === 'ECONNRESET' && idempotent)) throw error;
        lastError = error;
        continue;
      }
      return { upstream, answer, body: await readBody(answer) };
    }
    throw lastError;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
