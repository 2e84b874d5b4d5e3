import type { IncomingHttpHeaders } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import type { DatabaseHandle } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { ManualClock } from '../../../src/clock.js';
import type { SourceTuning } from '../../../src/social/sources/http.js';
import { SourcePauses } from '../../../src/social/sources/pauses.js';
import { openTestDatabase } from '../../support/database.js';
import { closeServer, readBody, startHttpsServer } from '../../support/localServers.js';

/** Short timeouts and backoff, so retries and timeouts take milliseconds. */
export const TUNING: SourceTuning = { timeoutMs: 2000, retries: 2, backoffMs: 5 };

/** 2026-11-26 12:00 UTC: the test clock's start. */
export const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

export interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** Compressed as Stack Exchange sends every answer. */
  gzip?: boolean;
  deflate?: boolean;
}

/** A local https server playing a source: `answer` sees each request (also kept in `received`) and says what to send. */
export async function startSourceServer(answer: (request: Received) => Reply | Promise<Reply>) {
  const received: Received[] = [];
  const { server, port } = await startHttpsServer(async (req, res) => {
    const request: Received = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', `https://127.0.0.1:${port}`), headers: req.headers, body: (await readBody(req)).toString('utf8') };
    received.push(request);
    const reply = await answer(request);
    const body = Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...reply.headers };
    if (reply.gzip === true) headers['content-encoding'] = 'gzip';
    if (reply.deflate === true) headers['content-encoding'] = 'deflate';
    res.writeHead(reply.status ?? 200, headers);
    res.end(reply.gzip === true ? gzipSync(body) : reply.deflate === true ? deflateSync(body) : body);
  });
  return { base: `https://127.0.0.1:${port}`, received, close: () => closeServer(server) };
}

/** A migrated test database (SQLite, or PostgreSQL with TEST_DATABASE_URL), a manual clock and the pauses over them. */
export async function pausesOnTestDatabase(): Promise<{ database: DatabaseHandle; clock: ManualClock; pauses: SourcePauses }> {
  const database = await openTestDatabase();
  await migrateToLatest(database);
  const clock = new ManualClock(NOW);
  return { database, clock, pauses: new SourcePauses(database.db, clock) };
}

export { failureOf as failure } from '../../support/failure.js';
