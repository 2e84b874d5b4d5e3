import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../content/calendarSupport.js';
import { TestService } from '../support/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

describe('get_caller', () => {
  it('tells an API key its workspace, key, scopes and plan, whatever its scopes', async () => {
    const ws = await t.workspace({ plan: 'starter' });
    const key = await t.key(ws.workspaceId, ['read:leads']);
    const answer = await t.rest(key, 'GET', '/api/v1/caller');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      workspace: { id: ws.workspaceId, name: 'Acme Analytics', websiteUrl: 'https://acme.example' },
      via: 'api_key',
      apiKey: { id: expect.any(String), name: expect.any(String), prefix: key.slice(0, 10), createdAt: expect.any(String) },
      oauthClient: null,
      user: null,
      scopes: ['read:leads'],
      plan: { name: 'starter', limits: { requestsPerMinute: 120, seats: 3, articlesPerMonth: 12, trackedQueries: 100, competitors: 5 } },
    });
    const mcp = await t.mcpTool(key, 'get_caller');
    expect(mcp.structuredContent).toEqual(answer.body.data);
    expect(await t.mcpToolNames(key)).toContain('get_caller');
    expect((await t.rest('slk_not-a-real-key', 'GET', '/api/v1/caller')).status).toBe(401);
  });
});

describe('get_job and the jobId of background work', () => {
  it('follows the job a test event answered with, and the jobs of a publish', async () => {
    const ws = await t.workspace();
    const destination = await ok<{ destinationId: string }>(t, ws, 'POST', '/api/v1/destinations', {
      name: 'Main blog',
      endpointUrl: 'https://receiver.example/hook',
      siteUrl: 'https://acme.example/blog',
    });
    const sent = await ok<{ jobId: string; deliveryId: string }>(t, ws, 'POST', '/api/v1/destinations/test', { destinationId: destination.destinationId });
    const { job } = await ok<{ job: { id: string; kind: string; subjectId: string; state: string } }>(t, ws, 'GET', '/api/v1/job', { jobId: sent.jobId });
    expect(job).toMatchObject({ id: sent.jobId, kind: 'deliver', subjectId: sent.deliveryId, state: 'queued' });
    const listed = await ok<{ jobs: Array<{ id: string }> }>(t, ws, 'GET', '/api/v1/jobs', {});
    expect(listed.jobs.map((j) => j.id)).toContain(sent.jobId);
    const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
    const foreign = await t.rest(other.key, 'GET', '/api/v1/job', { jobId: sent.jobId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(`job ${sent.jobId} not found in this workspace`);
  });
});
