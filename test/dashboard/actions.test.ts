import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

const PASSWORD = 'correct horse battery';
let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function signedIn(role: 'owner' | 'member'): Promise<{ ws: TestWorkspace; visitor: Visitor; csrf: string }> {
  const ws = await t.workspace();
  const email = `${role}-${ws.workspaceId}@acme.example`;
  await t.user(ws.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, PASSWORD);
  return { ws, visitor, csrf: await visitor.csrf(`/w/${ws.workspaceId}/keys`) };
}

const queryTexts = async (workspaceId: string) =>
  (await t.db.selectFrom('queries').select('text').where('workspace_id', '=', workspaceId).execute()).map((row) => row.text);

describe('the dashboard runs operations through the pipeline', () => {
  it('adds a query from a form, then returns to the page with what was done', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    const back = `/w/${ws.workspaceId}/visibility/queries`;
    const answer = await visitor.request(`/w/${ws.workspaceId}/do/add_query`, { method: 'POST', form: { _csrf: csrf, back, text: 'best crm for startups' } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${back}?done=add_query`);
    expect(await queryTexts(ws.workspaceId)).toContain('best crm for startups');
  });

  it('answers a bad input with the operation’s own 400 naming the field, and changes nothing', async () => {
    const { ws, visitor, csrf } = await signedIn('owner');
    const before = await queryTexts(ws.workspaceId);
    const answer = await visitor.request(`/w/${ws.workspaceId}/do/add_query`, { method: 'POST', form: { _csrf: csrf, text: '' } });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/text/);
    expect(await queryTexts(ws.workspaceId)).toEqual(before);
  });

  it('holds a member to a member’s scopes, and another workspace is not found', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    const refused = await visitor.request(`/w/${ws.workspaceId}/do/invite_team_member`, { method: 'POST', form: { _csrf: csrf, email: 'new@acme.example', role: 'member' } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('manage:org');
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const hidden = await visitor.request(`/w/${other.workspaceId}/do/add_query`, { method: 'POST', form: { _csrf: csrf, text: 'x y z' } });
    expect(hidden.status).toBe(404);
    expect(await queryTexts(other.workspaceId)).toEqual([]);
    const unknown = await visitor.request(`/w/${ws.workspaceId}/do/no_such_operation`, { method: 'POST', form: { _csrf: csrf } });
    expect(unknown.status).toBe(404);
  });

  it('shows a dry run with a confirm button that sends the same form with confirm', async () => {
    const { ws, visitor, csrf } = await signedIn('owner');
    const dryRun = await visitor.request(`/w/${ws.workspaceId}/do/invite_team_member`, {
      method: 'POST',
      form: { _csrf: csrf, back: `/w/${ws.workspaceId}/team`, email: 'new@acme.example', role: 'member' },
    });
    expect(dryRun.status).toBe(200);
    const page = await dryRun.text();
    expect(page).toContain('id="dry-run"');
    expect(await t.db.selectFrom('team_invites').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
    const fields = hiddenFields(page);
    expect(fields).toMatchObject({ email: 'new@acme.example', role: 'member', confirm: 'true' });
    const confirmed = await visitor.request(`/w/${ws.workspaceId}/do/invite_team_member`, { method: 'POST', form: fields });
    expect(confirmed.status).toBe(303);
    expect(await t.db.selectFrom('team_invites').select('email').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([{ email: 'new@acme.example' }]);
  });

  it('sends a change that needs the owner to its approval page', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    const added = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Acme Rival', websiteUrl: 'https://rival.example' });
    const competitorId = (added.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
    const answer = await visitor.request(`/w/${ws.workspaceId}/do/remove_competitor`, {
      method: 'POST',
      form: { _csrf: csrf, competitorId },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(new RegExp(`^/w/${ws.workspaceId}/approvals/`));
  });

  it('answers unknown dashboard paths and failures with HTML pages, and serves a favicon', async () => {
    const { ws, visitor } = await signedIn('owner');
    const missing = await visitor.request(`/w/${ws.workspaceId}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/text\/html/);
    expect(await missing.text()).toContain('Page not found');
    const icon = await fetch(`${t.baseUrl}/favicon.ico`);
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });
});
