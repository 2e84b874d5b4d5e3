import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { requestApproval } from '../../src/approvals/approvals.js';
import { seedGrant } from '../support/grants.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

const PASSWORD = 'correct horse battery';
let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

interface Person {
  ws: TestWorkspace;
  userId: string;
  visitor: Visitor;
}

async function person(role: 'owner' | 'member', ws?: TestWorkspace): Promise<Person> {
  const workspace = ws ?? (await t.workspace());
  const email = `${role}-${Math.random().toString(36).slice(2)}@acme.example`;
  const userId = await t.user(workspace.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, PASSWORD);
  return { ws: workspace, userId, visitor };
}

const text = async (visitor: Visitor, path: string) => {
  const answer = await visitor.request(path);
  expect(answer.status, path).toBe(200);
  return answer.text();
};

/** Posts the first form of `path` that runs `operationId`, with `fields` filled in, as a browser would. */
async function submit(visitor: Visitor, path: string, operationId: string, fields: Record<string, string> = {}) {
  const page = await text(visitor, path);
  const form = [...page.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((match) => match[1]!.endsWith(`/do/${operationId}`));
  expect(form, `${path} has a form for ${operationId}`).toBeDefined();
  return visitor.request(form![1]!, { method: 'POST', form: { ...hiddenFields(form![2]!), ...fields } });
}

describe('Settings', () => {
  it('lets an owner change the time zone, which changes how every page shows times', async () => {
    const owner = await person('owner');
    const keys = `/w/${owner.ws.workspaceId}/keys`;
    const created = await t.db.selectFrom('api_keys').select('created_at').where('id', '=', owner.ws.keyId).executeTakeFirstOrThrow();
    const utc = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(created.created_at);
    const tokyo = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(created.created_at);
    expect(await text(owner.visitor, keys)).toContain(utc);

    const saved = await submit(owner.visitor, `/w/${owner.ws.workspaceId}/settings`, 'update_workspace_settings', { timeZone: 'Asia/Tokyo' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/w/${owner.ws.workspaceId}/settings?done=update_workspace_settings`);
    expect(await text(owner.visitor, `/w/${owner.ws.workspaceId}/settings`)).toContain('<strong id="current-time-zone">Asia/Tokyo</strong>');
    expect(await text(owner.visitor, keys)).toContain(tokyo);

    const refused = await t.rest(owner.ws.key, 'POST', '/api/v1/workspace', { timeZone: 'Mars/Olympus' });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain('timeZone');
  });

  it('shows a member the time zone without the form, and the API refuses them the change', async () => {
    const member = await person('member');
    const page = await text(member.visitor, `/w/${member.ws.workspaceId}/settings`);
    expect(page).toContain('id="current-time-zone">UTC<');
    expect(page).not.toContain('/do/update_workspace_settings');
    expect(page).toContain('id="search-console"');
  });
});

describe('Team', () => {
  it('invites with a dry run, then Confirm shows the accept link', async () => {
    const owner = await person('owner');
    const team = `/w/${owner.ws.workspaceId}/team`;
    const dryRun = await submit(owner.visitor, team, 'invite_team_member', { email: 'teammate@acme.example', role: 'member' });
    expect(dryRun.status).toBe(200);
    const check = await dryRun.text();
    expect(check).toContain('id="dry-run"');
    expect(await t.db.selectFrom('team_invites').select('id').where('workspace_id', '=', owner.ws.workspaceId).execute()).toEqual([]);
    const confirmed = await owner.visitor.request(`/w/${owner.ws.workspaceId}/do/invite_team_member`, { method: 'POST', form: hiddenFields(check) });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toMatch(/id="result"[\s\S]*\/invite\//);
    const listed = await text(owner.visitor, team);
    expect(listed).toContain('teammate@acme.example');
    expect(listed).toContain('/do/revoke_team_invite');
  });

  it('removes a member only after the confirm page, and revokes a pending invite', async () => {
    const owner = await person('owner');
    const member = await person('member', owner.ws);
    const team = `/w/${owner.ws.workspaceId}/team`;
    const confirmPath = `${team}/remove/${member.userId}`;
    expect(await text(owner.visitor, team)).toContain(`href="${confirmPath}"`);
    const question = await text(owner.visitor, confirmPath);
    expect(question).toMatch(/Remove member-[a-z0-9]+@acme\.example \(member\) from/);
    const removed = await submit(owner.visitor, confirmPath, 'remove_team_member');
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe(`${team}?done=remove_team_member`);
    expect(await t.db.selectFrom('memberships').select('user_id').where('workspace_id', '=', owner.ws.workspaceId).where('user_id', '=', member.userId).execute()).toEqual([]);

    await t.rest(owner.ws.key, 'POST', '/api/v1/team/invite', { email: 'later@acme.example', confirm: true });
    const revoked = await submit(owner.visitor, team, 'revoke_team_invite');
    expect(revoked.status).toBe(303);
    expect(await text(owner.visitor, team)).not.toContain('later@acme.example');
  });

  it('tells a member why the list is not theirs to read, with the roles', async () => {
    const member = await person('member');
    const page = await text(member.visitor, `/w/${member.ws.workspaceId}/team`);
    expect(page).toContain('manage:org');
    expect(page).toContain('<dt>Owner</dt>');
    expect(page).not.toContain('/do/invite_team_member');
  });
});

describe('Connected AI apps', () => {
  it('lists every grant for an owner, and a revoked grant’s token gets 401 at /mcp at once', async () => {
    const owner = await person('owner');
    const { grantId, token } = await seedGrant(t, { workspaceId: owner.ws.workspaceId, userId: owner.userId, clientName: 'Claude Desktop', scopes: ['read:content', 'write:content'] });
    expect((await t.mcpRequest(token, 'tools/list')).status).toBe(200);
    const apps = `/w/${owner.ws.workspaceId}/apps`;
    const page = await text(owner.visitor, apps);
    expect(page).toContain('Claude Desktop');
    expect(page).toContain('read:content, write:content');
    // The call above was recorded as the grant's last use.
    expect(page).not.toContain('<td>never</td>');

    const question = await text(owner.visitor, `${apps}/${grantId}/revoke`);
    expect(question).toContain('Revoke Claude Desktop&#39;s access');
    const revoked = await submit(owner.visitor, `${apps}/${grantId}/revoke`, 'revoke_connected_app');
    expect(revoked.status).toBe(303);
    expect((await t.mcpRequest(token, 'tools/list')).status).toBe(401);
    expect(await text(owner.visitor, apps)).toContain('id="no-apps"');
  });

  it('shows a member only their own grants; another person’s and another workspace’s are not found', async () => {
    const owner = await person('owner');
    const member = await person('member', owner.ws);
    const mine = await seedGrant(t, { workspaceId: owner.ws.workspaceId, userId: member.userId, clientName: 'Member App' });
    const theirs = await seedGrant(t, { workspaceId: owner.ws.workspaceId, userId: owner.userId, clientName: 'Owner App' });
    const page = await text(member.visitor, `/w/${owner.ws.workspaceId}/apps`);
    expect(page).toContain('Member App');
    expect(page).not.toContain('Owner App');
    expect((await member.visitor.request(`/w/${owner.ws.workspaceId}/apps/${theirs.grantId}/revoke`)).status).toBe(404);

    const memberKey = (await createApiKey(t.db, t.clock, { workspaceId: owner.ws.workspaceId, userId: member.userId, scopes: ['read:content'], name: 'member key' })).key;
    const listed = await t.rest(memberKey, 'GET', '/api/v1/workspace/apps');
    expect((listed.body.data as { apps: { grantId: string }[] }).apps.map((app) => app.grantId)).toEqual([mine.grantId]);
    expect((await t.rest(memberKey, 'POST', '/api/v1/workspace/apps/revoke', { grantId: theirs.grantId, confirm: true })).status).toBe(404);
    const ownerView = await t.rest(owner.ws.key, 'GET', '/api/v1/workspace/apps');
    expect((ownerView.body.data as { apps: unknown[] }).apps).toHaveLength(2);

    const other = await person('owner');
    const foreign = await seedGrant(t, { workspaceId: other.ws.workspaceId, userId: other.userId, clientName: 'Elsewhere' });
    expect((await t.rest(owner.ws.key, 'POST', '/api/v1/workspace/apps/revoke', { grantId: foreign.grantId, confirm: true })).status).toBe(404);
    expect((await t.mcpRequest(foreign.token, 'tools/list')).status).toBe(200);
  });
});

describe('Approvals', () => {
  it('reads as a question, with the input as labelled fields', async () => {
    const owner = await person('owner');
    const added = await t.rest(owner.ws.key, 'POST', '/api/v1/competitors', { name: 'Acme', websiteUrl: 'https://acme-rival.example' });
    const competitorId = (added.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
    const asked = await t.rest(owner.ws.key, 'POST', '/api/v1/competitors/remove', { competitorId });
    const approvalId = String((asked.body.data as { approvalId: string }).approvalId);
    const list = await text(owner.visitor, `/w/${owner.ws.workspaceId}/approvals`);
    expect(list).toContain('Remove competitor Acme (acme-rival.example) from tracking?');
    const page = await text(owner.visitor, `/w/${owner.ws.workspaceId}/approvals/${approvalId}`);
    expect(page).toMatch(/<dt>Competitor id<\/dt><dd>cmp_/);
    expect(page).not.toContain('{&quot;');
  });

  it('shows a stored summary and its input to a member, without the buttons', async () => {
    const owner = await person('owner');
    const member = await person('member', owner.ws);
    const { approvalId } = await requestApproval(t.db, t.clock, {
      workspaceId: owner.ws.workspaceId,
      operationId: 'remove_competitor',
      input: { competitorId: 'cmp_x' },
      summary: 'Remove competitor X from tracking?',
      requestedBy: { apiKeyId: owner.ws.keyId, userId: null },
    });
    const page = await text(member.visitor, `/w/${owner.ws.workspaceId}/approvals/${approvalId}`);
    expect(page).toContain('Remove competitor X from tracking?');
    expect(page).toContain('<dt>Competitor id</dt><dd>cmp_x</dd>');
    expect(page).not.toContain('>Approve<');
  });
});

describe('Billing, Support and Data export', () => {
  it('shows the owner the billing; a member reads why not', async () => {
    const owner = await person('owner');
    expect(await text(owner.visitor, `/w/${owner.ws.workspaceId}/billing`)).toContain('id="billing-plan"');
    const member = await person('member', owner.ws);
    expect(await text(member.visitor, `/w/${owner.ws.workspaceId}/billing`)).toContain('manage:org');
  });

  it('sends a support message from the form', async () => {
    const member = await person('member');
    const sent = await submit(member.visitor, `/w/${member.ws.workspaceId}/support`, 'send_support_message', { subject: 'Help', message: 'The numbers look off' });
    expect(sent.status).toBe(303);
    const rows = await t.db.selectFrom('support_messages').selectAll().where('workspace_id', '=', member.ws.workspaceId).execute();
    expect(rows).toHaveLength(1);
  });

  it('downloads one JSON file with the workspace’s data, every page of the paged lists', async () => {
    const owner = await person('owner');
    await t.rest(owner.ws.key, 'POST', '/api/v1/queries', { text: 'best crm for dentists' });
    expect(await text(owner.visitor, `/w/${owner.ws.workspaceId}/export`)).toContain(`action="/w/${owner.ws.workspaceId}/export/download"`);
    const file = await owner.visitor.request(`/w/${owner.ws.workspaceId}/export/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="?sightline-${owner.ws.workspaceId}-\\d{4}-\\d{2}-\\d{2}\\.json"?$`));
    const data = (await file.json()) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['workspace', 'exportedAt', 'brand', 'queries', 'competitors', 'content', 'destinations', 'team', 'citations', 'backlinks', 'outreachProspects']);
    expect(JSON.stringify(data.queries)).toContain('best crm for dentists');
    expect(Array.isArray(data.citations)).toBe(true);

    const member = await person('member', owner.ws);
    const partial = (await (await member.visitor.request(`/w/${owner.ws.workspaceId}/export/download`)).json()) as Record<string, { omitted?: string }>;
    expect(partial.team!.omitted).toContain('manage:org');
  });
});
