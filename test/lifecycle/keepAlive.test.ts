import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';

/** SHUTDOWN_READINESS_DELAY_MS of the instance that is stopped: long enough for the steps below, short for a test. */
const READINESS_DELAY_MS = 800;
const GRACE_MS = 5000;

let running: TestService[] = [];
afterEach(async () => {
  await Promise.all(running.map((t) => t.close()));
  running = [];
});

async function start(env: Record<string, string> = {}): Promise<TestService> {
  const t = await TestService.start({ writer: false, env });
  running.push(t);
  return t;
}

/** Stops `t` as SIGTERM does; it is no longer closed after the test. */
function stop(t: TestService): Promise<void> {
  running = running.filter((other) => other !== t);
  return t.service.close(GRACE_MS);
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return `${code ?? 'no code'}: ${message ?? String(error)}`;
}

interface SteadyClient {
  /** Why the client moved to the other instance: the answer said `Connection: close`, or a connection was refused. */
  movedBecause: 'connection: close' | 'refused' | undefined;
  failures: string[];
  sent: number;
}

/**
 * A client holding one keep-alive connection to each instance, sending one request after another to `first` until
 * an answer says `Connection: close` or a connection is refused, then to `second`, as a load balancer would. A refused
 * connection never reached the instance, so its request is sent again; any other error is a lost request.
 */
async function steadyClient(first: TestService, second: TestService, until: Promise<void>): Promise<SteadyClient> {
  const state: SteadyClient = { movedBecause: undefined, failures: [], sent: 0 };
  const clients = [new Client(first.baseUrl, { keepAliveTimeout: 30_000 }), new Client(second.baseUrl, { keepAliveTimeout: 30_000 })] as const;
  let finished = false;
  void until.then(() => (finished = true));
  while (!finished) {
    const onFirst = state.movedBecause === undefined;
    state.sent++;
    try {
      const answer = await clients[onFirst ? 0 : 1].request({ path: '/healthz', method: 'GET' });
      await answer.body.text();
      if (answer.statusCode !== 200) state.failures.push(`status ${answer.statusCode}`);
      if (onFirst && answer.headers.connection === 'close') state.movedBecause = 'connection: close';
    } catch (error) {
      if (onFirst && (error as { code?: string }).code === 'ECONNREFUSED') state.movedBecause = 'refused';
      else state.failures.push(`${onFirst ? 'stopped instance' : 'other instance'}: ${describeError(error)}`);
    }
  }
  await Promise.all(clients.map((client) => client.close()));
  return state;
}

/** A raw connection, so that the test decides when it connects, when it sends, and sees when the server closes it. */
async function rawConnection(t: TestService): Promise<{ get(): Promise<{ head: string }>; closedAt: Promise<number> }> {
  const { hostname, port } = new URL(t.baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const closedAt = once(socket, 'close').then(() => Date.now());
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  return {
    closedAt,
    async get() {
      received = '';
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
      // /healthz answers a short JSON body with a Content-Length; the head and body fit in what arrives.
      while (!/\r\n\r\n\{"ok":true\}$/.test(received)) {
        if (socket.destroyed) throw new Error(`the connection closed before the answer; received ${JSON.stringify(received)}`);
        await Promise.race([once(socket, 'data'), once(socket, 'close')]);
      }
      return { head: received.slice(0, received.indexOf('\r\n\r\n')) };
    },
  };
}

describe('a graceful stop with keep-alive clients', () => {
  it('fails no request of twenty clients with steady keep-alive traffic to the instance that stops', async () => {
    const stopped = await start({ SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS) });
    const other = await start();
    let endTraffic: () => void = () => {};
    const trafficEnds = new Promise<void>((resolve) => (endTraffic = resolve));
    const clients = Array.from({ length: 20 }, () => steadyClient(stopped, other, trafficEnds));
    // Every client has its connection open and in use when the stop begins.
    await sleep(300);

    const closing = stop(stopped);
    await sleep(READINESS_DELAY_MS / 2);
    // The listener is still open: a balancer that has not yet polled /readyz may open a connection now.
    const late = new Client(stopped.baseUrl);
    const lateAnswer = await late.request({ path: '/healthz', method: 'GET' }).then(
      async (answer) => ({ status: answer.statusCode, connection: answer.headers.connection, body: await answer.body.json() }),
      (error: unknown) => describeError(error),
    );
    await late.close();
    await closing;
    await sleep(100);
    endTraffic();
    const results = await Promise.all(clients);

    expect(results.flatMap((client) => client.failures)).toEqual([]);
    // Each client's next request after the stop began was answered by the stopping instance, telling it to go.
    expect(results.map((client) => client.movedBecause)).toEqual(Array(20).fill('connection: close'));
    expect(results.every((client) => client.sent > 5)).toBe(true);
    expect(lateAnswer).toEqual({ status: 200, connection: 'close', body: { ok: true } });
    await expect(fetch(`${stopped.baseUrl}/healthz`)).rejects.toThrow();
  }, 20_000);

  it('answers a request sent on an idle keep-alive connection during the delay, keeps a new connection for its request, and closes a connection left idle when the delay ends', async () => {
    const t = await start({ SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS) });
    const reused = await rawConnection(t);
    const idle = await rawConnection(t);
    for (const connection of [reused, idle]) expect((await connection.get()).head).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: keep-alive/);

    const began = Date.now();
    const closing = stop(t);
    const at = (share: number) => sleep(Math.max(began + READINESS_DELAY_MS * share - Date.now(), 0));
    await at(0.25);
    const answered = await reused.get();
    expect(answered.head).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close/);
    // Closed by the server right after that answer, which told the client so.
    expect(await reused.closedAt).toBeLessThan(began + READINESS_DELAY_MS);

    // Connected just before the listener closes, its request sent just after: the request is awaited and answered.
    await at(0.75);
    const fresh = await rawConnection(t);
    await at(1.25);
    const freshAnswer = await fresh.get();
    expect(freshAnswer.head).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close/);

    // The connection that carried nothing was kept for the whole delay, then closed with the listener.
    expect(await idle.closedAt).toBeGreaterThanOrEqual(began + READINESS_DELAY_MS);
    await closing;
    expect(Date.now() - began).toBeLessThan(GRACE_MS);
    await expect(rawConnection(t)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 20_000);
});
