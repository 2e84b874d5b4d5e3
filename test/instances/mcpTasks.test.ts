import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { systemClock } from '../../src/clock.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { Receiver } from '../publishing/receiver.js';
import { freePort } from '../support/harness.js';
import { ListenStream, modernRequest } from '../support/mcp2026.js';
import { startEntry } from '../support/processes.js';

/**
 * MCP tasks across real service processes on one PostgreSQL database and one Redis: a task made by one instance is
 * read and cancelled through the other, and still there after the first restarts; a listen stream on one hears how a
 * task made on the other went. Runs when TEST_DATABASE_URL and
 * TEST_REDIS_URL are set (.ci/run sets both), as test/instances/processes.test.ts.
 */
const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
const redisUrl = process.env.TEST_REDIS_URL || undefined;

interface Instance {
  port: number;
  child: ChildProcess;
}

let databaseName: string;
let db: DatabaseHandle;
let receiver: Receiver;
let environment: Record<string, string>;
let instances: Instance[] = [];
let key: string;
let destinationId: string;

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function start(port: number): Promise<Instance> {
  const { child } = await startEntry('src/main.ts', { ...environment, PORT: String(port) }, /sightline is serving/);
  return { port, child };
}

async function stop(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGTERM');
  await exited;
}

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** One 2026-07-28 request to one instance, from a client that declares the Tasks extension. */
async function modern(instance: Instance, method: string, params: Record<string, unknown>): Promise<Answer> {
  const { status, body } = await modernRequest(`http://127.0.0.1:${instance.port}`, key, method, params, { capabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } });
  expect(status, `${method} on port ${instance.port}`).toBe(200);
  return body;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(postgresUrl === undefined || redisUrl === undefined)('MCP tasks across two service processes', () => {
  beforeAll(async () => {
    databaseName = `sightline_tasks_${randomBytes(5).toString('hex')}`;
    await adminQuery(`create database ${databaseName}`);
    const url = new URL(postgresUrl!);
    url.pathname = `/${databaseName}`;
    receiver = await Receiver.start();
    const [portA, portB] = [await freePort(), await freePort()];
    environment = {
      DATABASE_URL: url.href,
      REDIS_URL: redisUrl!,
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${portA}`,
      JOBS_POLL_MS: '200',
      MCP_LISTEN_POLL_MS: '200',
      SHUTDOWN_GRACE_MS: '4000',
      SHUTDOWN_READINESS_DELAY_MS: '0',
      ALLOW_PRIVATE_TARGETS: '1',
      BOOTSTRAP_SITE_URL: 'https://acme.example',
      LOG_LEVEL: 'info',
    };
    // One first, so that the two do not race to bootstrap the empty database (processes.test.ts covers that race).
    instances = [await start(portA!)];
    instances.push(await start(portB!));
    db = openDatabase(url.href);
    const { id: workspaceId } = await db.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
    key = (await createApiKey(db.db, systemClock, { workspaceId, scopes: ALL_SCOPES, name: 'tasks across instances' })).key;
    const created = await fetch(`http://127.0.0.1:${portA}/api/v1/destinations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Blog', endpointUrl: receiver.url('/hook'), siteUrl: 'https://acme.example' }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { destinationId: string; signingSecret: string } };
    receiver.register('/hook', data.signingSecret);
    destinationId = data.destinationId;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stop(instance)));
    await receiver?.close();
    await db?.close();
    if (databaseName !== undefined) await adminQuery(`drop database if exists ${databaseName} with (force)`);
  });

  it('read on the other instance a task one instance created, to its result, and again after the first restarts', async () => {
    const [a, b] = instances as [Instance, Instance];
    const started = await modern(a, 'tools/call', { name: 'send_test_event', arguments: { destinationId } });
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(started.result?.taskId);

    // Stored before it was answered: the other instance knows it at once.
    expect((await modern(b, 'tasks/get', { taskId })).result).toMatchObject({ resultType: 'complete', taskId });
    let completed: Answer = {};
    await waitFor('the task completes', async () => {
      completed = await modern(b, 'tasks/get', { taskId });
      return completed.result?.status === 'completed';
    });
    expect(completed.result?.result).toMatchObject({ structuredContent: { destinationId, event: 'test', queued: true } });
    expect(receiver.at('/hook')).toHaveLength(1);

    await stop(a);
    instances[0] = await start(a.port);
    expect((await modern(instances[0]!, 'tasks/get', { taskId })).result).toEqual(completed.result);
  }, 60_000);

  it('tell a listen stream on one instance how a task the other created went', async () => {
    const [a, b] = instances as [Instance, Instance];
    const taskId = String((await modern(a, 'tools/call', { name: 'send_test_event', arguments: { destinationId } })).result?.taskId);
    const stream = await ListenStream.open(`http://127.0.0.1:${b.port}`, key, { taskIds: [taskId] }, { extensions: { [TASKS_EXTENSION_ID_V2]: {} } });
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });
    let told = await stream.next(20_000);
    while (told?.params?.status === 'working') told = await stream.next(20_000);
    expect(told).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'completed', result: { structuredContent: { destinationId, event: 'test' } } } });
    await stream.close();
  }, 60_000);

  it('cancel on one instance a task the other created, idempotently, and tell the same to both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const sentBefore = receiver.at('/hook').length;
    // Both workers poll every 200 ms: the job may run before the cancel reaches it, and then the task completes instead.
    const taskId = String((await modern(a, 'tools/call', { name: 'send_test_event', arguments: { destinationId } })).result?.taskId);
    expect((await modern(b, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await modern(a, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    const fromA = (await modern(a, 'tasks/get', { taskId })).result;
    expect(['cancelled', 'completed', 'working']).toContain(fromA?.status);
    await waitFor('the task ends', async () => (await modern(b, 'tasks/get', { taskId })).result?.status !== 'working');
    const [endA, endB] = [(await modern(a, 'tasks/get', { taskId })).result, (await modern(b, 'tasks/get', { taskId })).result];
    expect(endA).toEqual(endB);
    expect(receiver.at('/hook').length - sentBefore).toBe(endA?.status === 'cancelled' ? 0 : 1);
  }, 60_000);
});
