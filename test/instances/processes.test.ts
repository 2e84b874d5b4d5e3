import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { systemClock } from '../../src/clock.js';
import { enqueueJob } from '../../src/jobs/queue.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { createUser } from '../../src/operator.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { Receiver } from '../publishing/receiver.js';
import { writtenArticle } from '../publishing/support.js';
import { freePort } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { startEntry } from '../support/processes.js';
import { RoundRobinProxy } from '../support/proxy.js';
import { authorizationCodeTokens } from '../support/oauthFlow.js';
import { Visitor } from '../support/visitor.js';

/**
 * Two real service processes on one PostgreSQL database and one Redis, behind a round-robin proxy: what must happen
 * once happens once, and limits count as one. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets both).
 */
const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
const redisUrl = process.env.TEST_REDIS_URL || undefined;
const TITLE = 'How to pick a CRM for dentists';

interface Instance {
  port: number;
  child: ChildProcess;
  output(): string;
}

let databaseName: string;
let databaseUrl: string;
let db: DatabaseHandle;
let receiver: Receiver;
let site: Awaited<ReturnType<typeof startHttpsServer>>;
let releaseSite: () => void = () => {};
let proxy: RoundRobinProxy;
let instances: Instance[] = [];
let environment: Record<string, string>;
let bootstrapKey: string;
let workspaceId: string;

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function startInstances(ports: number[]): Promise<Instance[]> {
  return Promise.all(
    ports.map(async (port) => {
      const { child, output } = await startEntry('src/main.ts', { ...environment, PORT: String(port) }, /sightline is serving/);
      return { port, child, output };
    }),
  );
}

async function stop(instance: Instance): Promise<number | null> {
  if (instance.child.exitCode !== null) return instance.child.exitCode;
  const exited = once(instance.child, 'exit') as Promise<[number | null]>;
  instance.child.kill('SIGTERM');
  return (await exited)[0];
}

const direct = (instance: Instance, path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${instance.port}${path}`, init);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function newKey(): Promise<string> {
  return (await createApiKey(db.db, systemClock, { workspaceId, scopes: ALL_SCOPES, name: 'process test' })).key;
}

interface Traffic {
  answers: number;
  failures: string[];
}

/** Requests each steady client has in flight at once, each on a keep-alive connection of its own, as an agent's parallel tool calls. */
const LANES = 3;

/**
 * One client holding keep-alive connections to the proxy, sending REST reads and MCP calls (POSTs, which the proxy does
 * not send twice) in turn, one after another on each connection, until `until` settles.
 */
async function steadyClient(key: string, until: Promise<void>): Promise<Traffic> {
  const pool = new Pool(proxy.url, { connections: LANES, keepAliveTimeout: 30_000 });
  const traffic: Traffic = { answers: 0, failures: [] };
  let finished = false;
  void until.then(() => (finished = true));
  const mcpCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_caller', arguments: {} } });
  const send = async (rest: boolean) => {
    const what = rest ? 'GET /api/v1/caller' : 'POST /mcp get_caller';
    try {
      const answer = rest
        ? await pool.request({ path: '/api/v1/caller', method: 'GET', headers: bearer(key) })
        : await pool.request({
            path: '/mcp',
            method: 'POST',
            headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: mcpCall,
          });
      const body = await answer.body.text();
      if (answer.statusCode === 200 && !body.includes('"isError":true')) traffic.answers++;
      else traffic.failures.push(`${what}: ${answer.statusCode} ${body}`);
    } catch (error) {
      traffic.failures.push(`${what}: ${String(error)}`);
    }
  };
  await Promise.all(
    Array.from({ length: LANES }, async (_, lane) => {
      for (let i = lane; !finished; i++) await send(i % 2 === 0);
    }),
  );
  await pool.close();
  return traffic;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(postgresUrl === undefined || redisUrl === undefined)('two service processes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    databaseName = `sightline_instances_${randomBytes(5).toString('hex')}`;
    await adminQuery(`create database ${databaseName}`);
    const url = new URL(postgresUrl!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.href;
    receiver = await Receiver.start();
    const held = new Promise<void>((resolve) => (releaseSite = resolve));
    site = await startHttpsServer((_req, res) => {
      void held.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>${TITLE}</h1></body></html>`));
    });
    const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
    environment = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl!,
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      TRUST_PROXY: 'loopback',
      JOBS_POLL_MS: '200',
      SHUTDOWN_GRACE_MS: '4000',
      // Well beyond the proxy's /readyz poll (every 200 ms, answered late when the machine is busy), as an operator
      // sets it beyond the balancer's interval and timeout.
      SHUTDOWN_READINESS_DELAY_MS: '3000',
      ALLOW_PRIVATE_TARGETS: '1',
      BOOTSTRAP_SITE_URL: 'https://acme.example',
      LOG_LEVEL: 'info',
    };
    // Both start at the same moment on the empty database.
    instances = await startInstances([portA!, portB!]);
    proxy = await RoundRobinProxy.start(proxyPort!, [portA!, portB!]);
    db = openDatabase(databaseUrl);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stop(instance)));
    releaseSite();
    await proxy?.close();
    await receiver?.close();
    if (site !== undefined) await closeServer(site.server);
    await db?.close();
    if (databaseName !== undefined) await adminQuery(`drop database if exists ${databaseName} with (force)`);
  });

  it('leave one workspace and one owner key after starting together on an empty database', async () => {
    const printed = instances.map((instance) => /\b(slk_[0-9A-Za-z]+)\b/.exec(instance.output())?.[1]).filter((key) => key !== undefined);
    expect(printed).toHaveLength(1);
    bootstrapKey = printed[0]!;
    const workspaces = await db.db.selectFrom('workspaces').select('id').execute();
    expect(workspaces).toHaveLength(1);
    workspaceId = workspaces[0]!.id;
    expect(await db.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
  });

  it("count a key's plan limit and a route's cap exactly once across both", async () => {
    const brandReads = [];
    for (let i = 0; i < 70; i++) brandReads.push((await direct(instances[i % 2]!, '/api/v1/brand', { headers: bearer(bootstrapKey) })).status);
    expect(brandReads.filter((status) => status === 200)).toHaveLength(60);
    expect(brandReads.slice(60)).toEqual(Array(10).fill(429));

    const key = await newKey();
    const adds = [];
    for (let i = 0; i < 14; i++) {
      const response = await direct(instances[i % 2]!, '/api/v1/queries', {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ text: `best crm for clinics ${i}` }),
      });
      adds.push(response.status);
    }
    expect(adds.filter((status) => status === 200)).toHaveLength(10);
    expect(adds.slice(10)).toEqual([429, 429, 429, 429]);
  });

  it('accept on one instance an OAuth access token minted by the other', async () => {
    await createUser(db.db, systemClock, { email: 'owner@acme.example', password: 'correct horse battery', workspaceId, role: 'owner' });
    const visitor = new Visitor(proxy.url);
    expect((await visitor.signIn('owner@acme.example', 'correct horse battery')).status).toBe(303);
    const tokens = await authorizationCodeTokens(proxy.url, visitor, workspaceId);
    for (const instance of instances) {
      const response = await direct(instance, '/mcp', {
        method: 'POST',
        headers: { ...bearer(tokens.access_token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_brand', arguments: {} } }),
      });
      expect(response.status, `instance on port ${instance.port}`).toBe(200);
      expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    }
  });

  it('run each queued job exactly once: every delivery reaches the receiver once', async () => {
    const key = await newKey();
    const created = await fetch(`${proxy.url}/api/v1/destinations`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Blog', endpointUrl: receiver.url('/hook'), siteUrl: 'https://acme.example' }),
    });
    expect(created.status).toBe(200);
    receiver.register('/hook', String(((await created.json()) as { data: { signingSecret: string } }).data.signingSecret));
    const articles = [];
    for (let i = 0; i < 8; i++) articles.push(await writtenArticle({ db: db.db, clock: systemClock }, { workspaceId }, `${TITLE} ${i}`));
    for (const contentId of articles) {
      const published = await fetch(`${proxy.url}/api/v1/content/publish`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ contentId, confirm: true }),
      });
      expect(published.status).toBe(200);
    }
    await waitFor('every delivery is done', async () => (await db.db.selectFrom('jobs').select('id').where('kind', '=', 'deliver').where('state', '!=', 'done').execute()).length === 0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.problems).toEqual([]);
    expect(receiver.at('/hook').map((delivery) => delivery.body.article.id).sort()).toEqual([...articles].sort());
    const attempts = await db.db.selectFrom('jobs').select('attempts').where('kind', '=', 'deliver').execute();
    expect(attempts.every((job) => job.attempts === 1)).toBe(true);
  });

  it('lose no request of twenty keep-alive clients with steady traffic when one instance is stopped with SIGTERM', async () => {
    const steadyWorkspace = await createWorkspace(db.db, systemClock, { name: 'Steady traffic', websiteUrl: 'https://steady.example', plan: 'scale' });
    const keys = [];
    for (let i = 0; i < 20; i++) keys.push((await createApiKey(db.db, systemClock, { workspaceId: steadyWorkspace, scopes: ALL_SCOPES, name: `steady client ${i}` })).key);
    let endTraffic: () => void = () => {};
    const trafficEnds = new Promise<void>((resolve) => (endTraffic = resolve));
    const clients = keys.map((key) => steadyClient(key, trafficEnds));
    // The proxy's connections to both instances are open and in use when the stop begins.
    await sleep(500);
    const stopped = instances[0]!;
    const answeredBefore = proxy.answeredBy.get(stopped.port) ?? 0;
    const exitCode = await stop(stopped);
    const answeredWhileStopping = (proxy.answeredBy.get(stopped.port) ?? 0) - answeredBefore;
    await sleep(300);
    endTraffic();
    const results = await Promise.all(clients);
    // Started again on its port, as a rolling restart does, for the tests below.
    instances = [...(await startInstances([stopped.port])), ...instances.slice(1)];

    expect(exitCode).toBe(0);
    expect(proxy.failures).toEqual([]);
    expect(results.flatMap((client) => client.failures)).toEqual([]);
    expect(results.every((client) => client.answers > 10)).toBe(true);
    // The stopping instance answered what reached it before the proxy saw /readyz fail.
    expect(answeredWhileStopping).toBeGreaterThan(0);
  }, 60_000);

  it('lose no request and no job when one instance is stopped with SIGTERM while both are busy', async () => {
    const articles = [];
    for (let i = 0; i < 8; i++) {
      const id = await writtenArticle({ db: db.db, clock: systemClock }, { workspaceId }, TITLE);
      await db.db.updateTable('articles').set({ url: `https://127.0.0.1:${site.port}/post-${i}` }).where('id', '=', id).execute();
      articles.push(id);
    }
    const jobs: string[] = [];
    for (const id of articles) jobs.push(await enqueueJob(db.db, systemClock, { workspaceId, kind: 'render_check', subjectId: id }));
    // Four slots on each instance: once all eight run, each instance holds four, waiting on the slow site.
    await waitFor('all eight checks run', async () => (await db.db.selectFrom('jobs').select('id').where('id', 'in', jobs).where('state', '=', 'running').execute()).length === 8);

    const key = await newKey();
    const answers: number[] = [];
    const stopped = instances[0]!;
    let exitCode: number | null | undefined;
    const requests = (async () => {
      for (let i = 0; i < 40; i++) {
        if (i === 5) void stop(stopped).then((code) => (exitCode = code));
        answers.push((await fetch(`${proxy.url}/api/v1/brand`, { headers: bearer(key) })).status);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    })();
    await requests;
    await waitFor('the stopped instance exits', async () => exitCode !== undefined);
    // Released before anything is asserted, so a failure here does not leave the next test's jobs waiting on the site.
    releaseSite();
    instances = instances.slice(1);
    expect(exitCode).toBe(0);
    expect(proxy.failures).toEqual([]);
    expect(answers).toEqual(Array(40).fill(200));
    expect(stopped.output()).toMatch(/job given back to the queue/);

    await waitFor('every check is done', async () => (await db.db.selectFrom('jobs').select('id').where('id', 'in', jobs).where('state', '!=', 'done').execute()).length === 0, 30_000);
    const finished = await db.db.selectFrom('jobs').select(['attempts', 'result']).where('id', 'in', jobs).execute();
    expect(finished.every((job) => job.attempts === 1 && job.result?.includes('"live":true'))).toBe(true);
  }, 60_000);

  it('publish an auto-publish slot once when both instances start their sweeps together', async () => {
    const policy = await fetch(`${proxy.url}/api/v1/settings/articles`, {
      method: 'POST',
      headers: { ...bearer(await newKey()), 'content-type': 'application/json' },
      body: JSON.stringify({ autoPublish: true }),
    });
    expect(policy.status).toBe(200);
    await Promise.all(instances.map((instance) => stop(instance)));
    const contentId = await writtenArticle({ db: db.db, clock: systemClock }, { workspaceId }, 'Autopublished once');
    // Sweeps were claimed a minute ahead by the earlier instances; the new ones find them due at once.
    await db.db.deleteFrom('sweep_claims').execute();
    const before = receiver.at('/hook').length;
    instances = await startInstances([await freePort(), await freePort()]);
    await waitFor('the article is delivered', async () => receiver.at('/hook').length > before);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.at('/hook').filter((delivery) => delivery.body.article.id === contentId)).toHaveLength(1);
    expect(await db.db.selectFrom('deliveries').select('id').where('article_id', '=', contentId).execute()).toHaveLength(1);
  }, 60_000);
});
