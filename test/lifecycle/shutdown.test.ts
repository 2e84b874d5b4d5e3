import { Agent, request } from 'undici';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import { writtenArticle } from '../publishing/support.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { defineTool } from '../../tools/define.js';
import { registry } from '../../tools/index.js';
import { extendRegistry } from '../../tools/registry.js';
import { TestService } from '../support/harness.js';

/** A read that waits until the test lets it answer: a request in flight when the service is told to stop. */
function slowRead(gate: { entered: () => void; release: Promise<void> }) {
  return defineTool({
    operationId: 'slow_read_for_test',
    method: 'GET',
    path: '/api/v1/test/slow',
    scope: 'read:content',
    cap: 'plan',
    description: 'Test-only: answers once the test releases it.',
    annotations: { title: 'Slow read (test)', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: z.strictObject({}),
    output: z.object({ answered: z.literal(true) }),
    confirm: 'none',
    transaction: 'none',
    handler: async () => {
      gate.entered();
      await gate.release;
      return { answered: true as const };
    },
  });
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('a graceful stop', () => {
  it('fails readiness at once, keeps liveness, closes keep-alive connections after their answer, and finishes the request in flight', async () => {
    const entered = deferred();
    const release = deferred();
    service = await TestService.start({
      registry: extendRegistry(registry, 'test', { description: 'A read that waits until released.', operations: [slowRead({ entered: entered.resolve, release: release.promise })] }),
      outbound: { allowPrivateAddresses: true },
      // The requests below come during the readiness delay, while the stopping instance still accepts them.
      env: { SHUTDOWN_READINESS_DELAY_MS: '1000' },
    });
    const t = service;
    const ws = await t.workspace();
    const { key } = ws;
    // A render check the customer's site answers slowly: a job still running when the stop begins.
    const siteRelease = deferred();
    const site = await startHttpsServer((_req, res) => {
      void siteRelease.promise.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>How to pick a CRM for dentists</h1>'));
    });
    const articleId = await writtenArticle(t, ws);
    await t.db.updateTable('articles').set({ url: `https://127.0.0.1:${site.port}/crm-for-dentists` }).where('id', '=', articleId).execute();
    const jobId = await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind: 'render_check', subjectId: articleId });
    const jobRun = t.jobs.runDue();
    await expect.poll(async () => (await t.db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirstOrThrow()).state).toBe('running');
    const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });
    const get = (path: string, headers: Record<string, string> = {}) => request(`${t.baseUrl}${path}`, { dispatcher: agent, headers });

    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(await ready.body.json()).toEqual({ ready: true });
    expect(ready.headers.connection).not.toBe('close');

    const inFlight = get('/api/v1/test/slow', { authorization: `Bearer ${key}` });
    await entered.promise;
    const closing = t.service.close(5000);

    const draining = await get('/readyz');
    expect(draining.statusCode).toBe(503);
    expect(await draining.body.json()).toEqual({ ready: false, reason: 'shutting down' });
    expect(draining.headers.connection).toBe('close');
    const live = await get('/healthz');
    expect(live.statusCode).toBe(200);
    expect(live.headers.connection).toBe('close');

    release.resolve();
    const answered = await inFlight;
    expect(answered.statusCode).toBe(200);
    expect(await answered.body.json()).toEqual({ data: { answered: true } });
    expect(answered.headers.connection).toBe('close');

    // The job finishes within the grace and records its outcome; then the service stops accepting and closes.
    siteRelease.resolve();
    await jobRun;
    expect(await t.db.selectFrom('jobs').select(['state', 'result']).where('id', '=', jobId).executeTakeFirstOrThrow()).toMatchObject({ state: 'done' });
    await closing;
    service = undefined;
    await expect(get('/healthz')).rejects.toThrow();
    await closeServer(site.server);
    await agent.close();
  });
});
