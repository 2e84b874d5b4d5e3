import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Stops an HTTP server whose Lifecycle is draining (/readyz fails, every answer carries `Connection: close`) without
 * failing a request a client has already sent, on a new connection or on a kept-alive one.
 *
 * The listener stays open for `readinessDelayMs`, while load balancers notice that /readyz fails. A keep-alive
 * connection that carries a request meanwhile is closed by Node right after that answer, when its client knows not
 * to send on it again. Then `server.close()` stops accepting and closes the idle keep-alive connections (Node 19 and
 * later): each has carried no request for the whole delay, so nothing is on its way on it. Closing them at once, as
 * before the delay existed, reset the requests that clients with steady traffic had just sent on them. A connection
 * accepted but still without a request is not idle for Node: its request is awaited. The one connection that can be
 * closed soon after its last answer is one whose answer began before the stop and so could not say `Connection: close`.
 *
 * Requests still running then get until `deadline` (at least a second), after which every connection is cut.
 */
export async function stopServing(server: Server, { readinessDelayMs, deadline }: { readinessDelayMs: number; deadline: number }): Promise<void> {
  await sleep(readinessDelayMs);
  const stopped = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  const inTime = await Promise.race([stopped.then(() => true), sleep(Math.max(deadline - Date.now(), 1000), false)]);
  if (!inTime) {
    server.closeAllConnections();
    await stopped;
  }
}
