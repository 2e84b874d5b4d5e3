import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBrandRow } from '../src/brand/readBrand.js';
import { TestService, type TestWorkspace } from './support/harness.js';
import { registryWithTestOperations } from './support/testOperations.js';

const DAY_MS = 86_400_000;

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ registry: registryWithTestOperations() });
});
afterAll(() => t.close());

async function brandName(ws: TestWorkspace): Promise<string> {
  return (await loadBrandRow(t.db, ws.workspaceId)).name;
}

async function approvalState(ws: TestWorkspace, approvalId: string): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, 'GET', '/api/v1/approvals', { approvalId });
  expect(answer.status).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

async function request(ws: TestWorkspace, name: string, surface: 'rest' | 'mcp' = 'rest'): Promise<string> {
  const data =
    surface === 'rest'
      ? ((await t.rest(ws.key, 'POST', '/api/v1/test/rename-brand', { name })).body.data as Record<string, unknown>)
      : (await t.mcpTool(ws.key, 'rename_brand_for_test', { name })).structuredContent;
  expect(data).toMatchObject({ approval_required: true, approvalId: expect.stringMatching(/^apr_/), summary: `Would rename the brand "Acme Analytics" to "${name}".` });
  expect(data.approvalUrl).toBe(`${t.baseUrl}/approvals/${String(data.approvalId)}`);
  return String(data.approvalId);
}

async function owned(): Promise<{ ws: TestWorkspace; owner: string; member: string }> {
  const ws = await t.workspace();
  const owner = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
  const member = await t.user(ws.workspaceId, `member-${ws.workspaceId}@acme.example`, 'member');
  return { ws, owner, member };
}

describe('changes that wait for the owner', () => {
  it('are recorded, not carried out, on both surfaces, and answer 200 with the approval', async () => {
    const { ws } = await owned();
    for (const surface of ['rest', 'mcp'] as const) {
      const approvalId = await request(ws, `Renamed via ${surface}`, surface);
      expect(await approvalState(ws, approvalId)).toMatchObject({ state: 'pending', operationId: 'rename_brand_for_test', result: null, error: null });
    }
    expect(await brandName(ws)).toBe('Acme Analytics');
  });

  it('run when an owner approves: running, then done with the answer', async () => {
    const { ws, owner } = await owned();
    const approvalId = await request(ws, 'Acme Two');
    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'approve' });
    expect(await brandName(ws)).toBe('Acme Two');
    expect(await approvalState(ws, approvalId)).toMatchObject({ state: 'done', result: { renamed: 'Acme Two' }, decidedAt: expect.any(String), finishedAt: expect.any(String) });
  });

  it('fail with the reason when the approved change cannot be carried out', async () => {
    const { ws, owner } = await owned();
    const approvalId = await request(ws, 'fail');
    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'approve' });
    expect(await approvalState(ws, approvalId)).toMatchObject({ state: 'failed', error: 'name: this name is refused when the change runs', result: null });
    expect(await brandName(ws)).toBe('Acme Analytics');
  });

  it('are declined by an owner and can then no longer be approved', async () => {
    const { ws, owner } = await owned();
    const approvalId = await request(ws, 'Never');
    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'decline' });
    expect((await approvalState(ws, approvalId)).state).toBe('declined');
    await expect(t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'approve' })).rejects.toThrow(/is declined/);
    expect(await brandName(ws)).toBe('Acme Analytics');
  });

  it('expire after 7 days undecided', async () => {
    const { ws, owner } = await owned();
    const approvalId = await request(ws, 'Too late');
    t.clock.advance(7 * DAY_MS - 1);
    expect((await approvalState(ws, approvalId)).state).toBe('pending');
    t.clock.advance(1);
    expect((await approvalState(ws, approvalId)).state).toBe('expired');
    await expect(t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'approve' })).rejects.toThrow(/is expired/);
    expect(await brandName(ws)).toBe('Acme Analytics');
  });

  it('are decided by owners only: a member is refused, an outsider does not see it', async () => {
    const { ws, member } = await owned();
    const other = await owned();
    const approvalId = await request(ws, 'Not yours');
    await expect(t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: member, choice: 'approve' })).rejects.toThrow(/only an owner/);
    await expect(t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: other.owner, choice: 'approve' })).rejects.toThrow(/not found/);
    await expect(t.service.pipeline.decideApproval({ workspaceId: other.ws.workspaceId, approvalId, userId: other.owner, choice: 'approve' })).rejects.toThrow(/not found/);
    expect((await approvalState(ws, approvalId)).state).toBe('pending');
  });

  it('refuses a request whose input is bad before recording anything', async () => {
    const { ws } = await owned();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/test/rename-brand', { name: '' });
    expect(answer).toMatchObject({ status: 400, body: { error: 'name: must not be empty' } });
    expect(await t.db.selectFrom('approvals').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });
});
