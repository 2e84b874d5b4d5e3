import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';

const DAY_MS = 86_400_000;

describe('team: get_team, invite_team_member, revoke_team_invite', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  /** A workspace with an owner, and the key the tests call with. */
  async function team(plan: 'trial' | 'scale' = 'scale'): Promise<TestWorkspace & { ownerId: string }> {
    const ws = await t.workspace({ plan, name: 'Acme' });
    const ownerId = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
    return { ...ws, ownerId };
  }

  async function invite(ws: TestWorkspace, email: string, extra: Record<string, unknown> = {}) {
    return t.rest(ws.key, 'POST', '/api/v1/team/invite', { email, confirm: true, ...extra });
  }

  it('get_team lists members with ISO join dates, pending invites and seats against the plan', async () => {
    const ws = await team();
    await invite(ws, 'ann@x.com');
    const answer = await t.rest(ws.key, 'GET', '/api/v1/team');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      members: [{ userId: ws.ownerId, email: `owner-${ws.workspaceId}@acme.example`, role: 'owner', joinedAt: new Date(t.clock.now()).toISOString() }],
      invites: [
        {
          inviteId: expect.stringMatching(/^inv_/),
          email: 'ann@x.com',
          role: 'member',
          invitedAt: new Date(t.clock.now()).toISOString(),
          expiresAt: new Date(t.clock.now() + 7 * DAY_MS).toISOString(),
        },
      ],
      seats: { used: 2, limit: 50 },
    });
    const mcp = await t.mcpTool(ws.key, 'get_team');
    expect(mcp.structuredContent).toEqual(answer.body.data);
  });

  it('a dry run says what would happen and changes nothing', async () => {
    const ws = await team();
    const before = await t.rest(ws.key, 'GET', '/api/v1/team');
    const dry = await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'Ann@X.com' });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toEqual({
      dryRun: true,
      note:
        'Would invite ann@x.com as member of "Acme" (https://acme.example); the accept link is valid for 7 days. ' +
        'Seats in use afterwards: 2 of 50. Repeat with confirm: true to create it.',
    });
    expect(await t.rest(ws.key, 'GET', '/api/v1/team')).toMatchObject({ body: before.body });
    expect(await t.db.selectFrom('team_invites').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });

  it('a confirmed invite returns an accept link whose token is stored only as its hash', async () => {
    const ws = await team();
    const answer = await invite(ws, 'ann@x.com', { role: 'owner' });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { inviteId: string; email: string; role: string; expiresAt: string; acceptUrl: string };
    expect(data).toMatchObject({ email: 'ann@x.com', role: 'owner', expiresAt: new Date(t.clock.now() + 7 * DAY_MS).toISOString() });
    const match = /^http:\/\/127\.0\.0\.1:\d+\/invite\/([A-Za-z0-9_-]{43})$/.exec(data.acceptUrl);
    expect(match).not.toBeNull();
    const token = match![1]!;
    const row = await t.db.selectFrom('team_invites').selectAll().where('id', '=', data.inviteId).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(Object.values(row)).not.toContain(token);
    const listed = await t.rest(ws.key, 'GET', '/api/v1/team');
    expect(listed.body.data).toMatchObject({ invites: [{ inviteId: data.inviteId, email: 'ann@x.com', role: 'owner' }] });
  });

  it('inviting the same email again replaces the pending invite and keeps one seat for it', async () => {
    const ws = await team();
    const first = (await invite(ws, 'ann@x.com')).body.data as { inviteId: string };
    const dry = await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'ann@x.com' });
    expect((dry.body.data as { note: string }).note).toContain(`replaces the pending invite ${first.inviteId}`);
    const second = (await invite(ws, 'ann@x.com')).body.data as { inviteId: string };
    expect(second.inviteId).not.toBe(first.inviteId);
    const listed = (await t.rest(ws.key, 'GET', '/api/v1/team')).body.data as { invites: Array<{ inviteId: string }>; seats: { used: number } };
    expect(listed.invites.map((i) => i.inviteId)).toEqual([second.inviteId]);
    expect(listed.seats.used).toBe(2);
    const old = await t.db.selectFrom('team_invites').select('revoked_at').where('id', '=', first.inviteId).executeTakeFirstOrThrow();
    expect(old.revoked_at).toBe(t.clock.now());
  });

  it('refuses to invite an existing member, in the dry run as well', async () => {
    const ws = await team();
    await t.user(ws.workspaceId, 'bob@x.com', 'member');
    for (const confirm of [false, true]) {
      const answer = await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'BOB@x.com', confirm });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('email: bob@x.com is already a member of "Acme" (as member)');
    }
  });

  it('refuses an invite beyond the plan seat limit, naming the numbers, until a seat is freed', async () => {
    const ws = await team('trial');
    expect((await invite(ws, 'ann@x.com')).status).toBe(200);
    const refused = await invite(ws, 'cid@x.com');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'email: no seat left for cid@x.com: the trial plan allows 2 seats and 2 are taken (1 member, 1 pending invite); revoke a pending invite or remove a member first',
    );
    // Re-inviting the pending address reuses its seat, so it is not refused.
    expect((await invite(ws, 'ann@x.com')).status).toBe(200);
    const mcp = await t.mcpTool(ws.key, 'invite_team_member', { email: 'cid@x.com' });
    expect(mcp).toMatchObject({ isError: true, structuredContent: { status: 400 } });
    // An expired invite no longer holds its seat.
    t.clock.advance(8 * DAY_MS);
    expect((await invite(ws, 'cid@x.com')).status).toBe(200);
  });

  it('rejects bad input naming the field', async () => {
    const ws = await team();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'not-an-email', role: 'admin', confirm: true });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('email: must be an email address; role: must be one of owner, member');
  });

  it('revokes a pending invite, frees its seat, and refuses a second revoke with the reason', async () => {
    const ws = await team();
    const { inviteId } = (await invite(ws, 'ann@x.com')).body.data as { inviteId: string };
    const revoked = await t.rest(ws.key, 'POST', '/api/v1/team/revoke', { inviteId });
    expect(revoked).toMatchObject({ status: 200, body: { data: { inviteId, revoked: true } } });
    expect((await t.rest(ws.key, 'GET', '/api/v1/team')).body.data).toMatchObject({ invites: [], seats: { used: 1 } });
    const again = await t.rest(ws.key, 'POST', '/api/v1/team/revoke', { inviteId });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(`inviteId: invite ${inviteId} was already revoked on ${new Date(t.clock.now()).toISOString()}`);
  });

  it('refuses to revoke an expired invite', async () => {
    const ws = await team();
    const { inviteId, expiresAt } = (await invite(ws, 'ann@x.com')).body.data as { inviteId: string; expiresAt: string };
    t.clock.advance(7 * DAY_MS);
    const answer = await t.rest(ws.key, 'POST', '/api/v1/team/revoke', { inviteId });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(`inviteId: invite ${inviteId} expired on ${expiresAt}; its link no longer works`);
  });

  it("answers 404 for another workspace's invite exactly as for an unknown one, and leaves it alone", async () => {
    const mine = await team();
    const theirs = await team();
    const { inviteId } = (await invite(theirs, 'ann@x.com')).body.data as { inviteId: string };
    const foreign = await t.rest(mine.key, 'POST', '/api/v1/team/revoke', { inviteId });
    expect(foreign).toMatchObject({ status: 404, body: { error: `invite ${inviteId} not found in this workspace` } });
    const unknown = await t.rest(mine.key, 'POST', '/api/v1/team/revoke', { inviteId: 'inv_nope' });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'invite inv_nope not found in this workspace' } });
    expect((await t.rest(theirs.key, 'GET', '/api/v1/team')).body.data).toMatchObject({ invites: [{ inviteId }] });
  });

  it('requires manage:org', async () => {
    const ws = await team();
    const key = await t.key(ws.workspaceId, ['read:content']);
    expect((await t.rest(key, 'GET', '/api/v1/team')).status).toBe(403);
  });
});
