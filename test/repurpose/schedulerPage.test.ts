import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';
import { FakePostiz } from '../integrations/fakes/postiz.js';
import { FakeTypefully } from '../integrations/fakes/typefully.js';

let t: TestService;
let typefully: FakeTypefully;
let postiz: FakePostiz;

beforeAll(async () => {
  [typefully, postiz] = await Promise.all([FakeTypefully.start(), FakePostiz.start()]);
  t = await TestService.start({ writer: false, outbound: { allowPrivateAddresses: true }, env: { ALLOW_PRIVATE_TARGETS: '1', SECRETS_KEY: 'c'.repeat(64), TYPEFULLY_BASE_URL: typefully.baseUrl } });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([typefully?.close(), postiz?.close()]);
});

describe('the scheduling tool page', () => {
  it("lets an owner connect a tool (key sealed, never shown back), list its social sets and channels, and remove it; a member gets 403", async () => {
    const owner = await t.signedInOwner();
    const path = `/w/${owner.workspaceId}/repurpose/scheduler`;
    const post = async (to: string, form: Record<string, string>) => owner.visitor.request(to, { method: 'POST', form: { _csrf: await owner.visitor.csrf(path), ...form } });
    expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain(`href="${path}"`);

    const bad = await post(path, { tool: 'hootsuite', apiKey: 'k' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('tool: must be postiz, buffer or typefully');
    const keyless = await post(path, { tool: 'typefully', apiKey: '' });
    expect(keyless.status).toBe(400);
    expect(await keyless.text()).toContain('apiKey: is required to connect typefully');

    const saved = await post(path, { tool: 'typefully', apiKey: FakeTypefully.KEY, baseUrl: '', accountId: '' });
    expect(saved.status).toBe(200);
    const shown = await saved.text();
    expect(shown).toContain('Connection saved.');
    expect(shown).not.toContain(FakeTypefully.KEY);
    expect(shown).toMatch(/<code>111<\/code> Acme/);
    const row = await t.db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tool: 'typefully', base_url: typefully.baseUrl, account_id: null });
    expect(row.api_key).toMatch(/^sealed:v1:/);

    // A blank key keeps the stored one for the same tool.
    await post(path, { tool: 'typefully', apiKey: '', accountId: '111' });
    expect(await t.db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow()).toMatchObject({ api_key: row.api_key, account_id: '111' });

    const checked = await post(`${path}/check`, {});
    expect(checked.status).toBe(200);
    const channels = await checked.text();
    expect(channels).toContain('Typefully answered with 2 channels');
    expect(channels).toContain('<code>111:x</code>');
    expect((await t.db.selectFrom('scheduler_connections').select('checked_at').where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow()).checked_at).toBe(t.clock.now());

    // A self-hosted Postiz: its own address; a wrong key shows the refusal on the check.
    await post(path, { tool: 'postiz', apiKey: 'not-the-key', baseUrl: `${postiz.baseUrl}/` });
    expect(await t.db.selectFrom('scheduler_connections').select('base_url').where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow()).toEqual({ base_url: postiz.baseUrl });
    const refused = await post(`${path}/check`, {});
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain('Postiz refused the API key (401)');

    await t.user(owner.workspaceId, 'member@acme.example', 'member');
    const member = new Visitor(t.baseUrl);
    await member.signIn('member@acme.example', 'correct horse battery');
    expect((await member.request(path)).status).toBe(403);

    const removed = await post(`${path}/remove`, {});
    expect(removed.status).toBe(303);
    expect(await t.db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', owner.workspaceId).execute()).toEqual([]);
  });
});
