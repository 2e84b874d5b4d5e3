// Local servers that play other parties in the tests (providers, receivers, customer sites).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

const TLS_DIR = new URL('./tls/', import.meta.url);
/** The test certificate for localhost and 127.0.0.1, signed by the throwaway CA vitest trusts (NODE_EXTRA_CA_CERTS). */
export const TEST_CERTIFICATE = { cert: readFileSync(new URL('receiver.pem', TLS_DIR)), key: readFileSync(new URL('receiver-key.pem', TLS_DIR)) };

/** An https server with the test certificate on a free port of 127.0.0.1, listening. */
export async function startHttpsServer(listener?: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(TEST_CERTIFICATE, listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

/** The whole body of a request to a local test server. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Closes a local test server now, dropping the keep-alive connections its clients left open. */
export function closeServer(server: { closeAllConnections(): void; close(callback: () => void): unknown }): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
