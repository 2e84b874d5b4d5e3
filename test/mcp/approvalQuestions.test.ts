import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBrandRow } from '../../src/brand/readBrand.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { modernRequest } from '../support/mcp2026.js';
import { registryWithTestOperations } from '../support/testOperations.js';

const OPENS_URLS = { elicitation: { url: {} } };

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ registry: registryWithTestOperations() });
});
afterAll(() => t.close());

interface Result {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** One 2026-07-28 tools/call of the test operation that waits for the owner; `retry` carries what a retry adds. */
async function rename(ws: TestWorkspace, name: string, capabilities: Record<string, unknown>, retry: Record<string, unknown> = {}, tool = 'rename_brand_for_test') {
  return (await modernRequest(t.baseUrl, ws.key, 'tools/call', { name: tool, arguments: { name }, ...retry }, { capabilities })).body as { result?: Result; error?: { code: number; message: string } };
}

async function ownedWorkspace() {
  const ws = await t.workspace();
  const owner = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
  return { ws, owner };
}

const accepted = (state: string) => ({ requestState: state, inputResponses: { approval: { action: 'accept' } } });

describe('a change that waits for the owner, asked inside the call', () => {
  it('sends a client that opens URLs to the approval page, asks again while it waits, and finishes with the outcome', async () => {
    const { ws, owner } = await ownedWorkspace();
    const first = (await rename(ws, 'Acme Two', OPENS_URLS)).result!;
    expect(first.resultType).toBe('input_required');
    const question = first.inputRequests?.approval;
    expect(question).toMatchObject({ method: 'elicitation/create', params: { mode: 'url', message: expect.stringContaining('Would rename the brand "Acme Analytics" to "Acme Two"') } });
    const url = String(question?.params.url);
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/approvals/apr_`));
    const state = first.requestState!;

    // The person opened the page, but no owner has decided yet: the same question again, and nothing changed.
    const waiting = (await rename(ws, 'Acme Two', OPENS_URLS, accepted(state))).result!;
    expect(waiting.resultType).toBe('input_required');
    expect(waiting.inputRequests?.approval?.params.url).toBe(url);
    expect((await loadBrandRow(t.db, ws.workspaceId)).name).toBe('Acme Analytics');

    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId: url.split('/').at(-1)!, userId: owner, choice: 'approve' });
    const done = (await rename(ws, 'Acme Two', OPENS_URLS, accepted(waiting.requestState!))).result!;
    expect(done).toMatchObject({ resultType: 'complete', structuredContent: { renamed: 'Acme Two' } });
    expect(done.isError).not.toBe(true);
    expect((await loadBrandRow(t.db, ws.workspaceId)).name).toBe('Acme Two');
  });

  it('finishes with a refusal when the owner declines, and with the approval answer when the person would not go', async () => {
    const { ws, owner } = await ownedWorkspace();
    const asked = (await rename(ws, 'Acme Three', OPENS_URLS)).result!;
    const approvalId = String(asked.inputRequests?.approval?.params.url).split('/').at(-1)!;
    const notGoing = (await rename(ws, 'Acme Three', OPENS_URLS, { requestState: asked.requestState, inputResponses: { approval: { action: 'decline' } } })).result!;
    expect(notGoing).toMatchObject({ resultType: 'complete', structuredContent: { approval_required: true, approvalId } });

    await t.service.pipeline.decideApproval({ workspaceId: ws.workspaceId, approvalId, userId: owner, choice: 'decline' });
    const declined = (await rename(ws, 'Acme Three', OPENS_URLS, accepted(asked.requestState!))).result!;
    expect(declined).toMatchObject({ isError: true, structuredContent: { status: 403, error: 'a workspace owner declined this change' } });
  });

  it('gives a client that cannot open URLs the approval_required answer, as REST does', async () => {
    const { ws } = await ownedWorkspace();
    const result = (await rename(ws, 'Acme Four', {})).result!;
    expect(result).toMatchObject({ resultType: 'complete', structuredContent: { approval_required: true, approvalId: expect.stringMatching(/^apr_/) } });
  });

  it('refuses a request state that was altered, given to another caller, or given for another tool', async () => {
    const { ws } = await ownedWorkspace();
    const state = (await rename(ws, 'Acme Five', OPENS_URLS)).result!.requestState!;
    const [header, payload, signature] = state.split('.');
    const altered = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    expect((await rename(ws, 'Acme Five', OPENS_URLS, accepted(altered))).error?.code).toBe(-32602);

    const other = await t.workspace();
    expect((await rename(other, 'Acme Five', OPENS_URLS, accepted(state))).error?.code).toBe(-32602);
    const sameKeyOtherTool = await rename(ws, 'Acme Five', OPENS_URLS, accepted(state), 'get_caller');
    expect(sameKeyOtherTool.error?.code).toBe(-32602);
  });
});
