/** Baseline for the benchmark: a bare express 5 hello-world JSON route, nothing else. Prints `{ url }`. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { announce, stopWithParent } from './child.js';

const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});

const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;

stopWithParent(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
announce({ url: `http://127.0.0.1:${port}` });
