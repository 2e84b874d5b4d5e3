import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { scopesOfRole } from '../../src/auth/roles.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { TestService } from '../support/harness.js';

describe('team: remove_team_member', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  /** A workspace with an owner and a member who has created two keys in it. */
  async function team() {
    const ws = await t.workspace({ name: 'Acme' });
    const ownerId = await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
    const bobEmail = `bob-${ws.workspaceId}@x.com`;
    const bobId = await t.user(ws.workspaceId, bobEmail, 'member');
    const bobKeys: string[] = [];
    for (const name of ['laptop', 'ci']) {
      bobKeys.push((await createApiKey(t.db, t.clock, { workspaceId: ws.workspaceId, scopes: scopesOfRole('member'), name, userId: bobId })).key);
    }
    return { ...ws, ownerId, bobId, bobEmail, bobKeys };
  }

  it('without confirm refuses with a concrete note and changes nothing', async () => {
    const ws = await team();
    const before = await t.rest(ws.key, 'GET', '/api/v1/team');
    const answer = await t.rest(ws.key, 'POST', '/api/v1/team/remove', { userId: ws.bobId });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `confirm: must be true to proceed; This would remove ${ws.bobEmail} (member) from "Acme" and revoke the 2 API keys they created in it.`,
    );
    expect((await t.rest(ws.key, 'GET', '/api/v1/team')).body).toEqual(before.body);
    expect((await t.rest(ws.bobKeys[0], 'GET', '/api/v1/brand')).status).toBe(200);
  });

  it('with confirm removes the member and revokes their keys here, and only theirs', async () => {
    const ws = await team();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/team/remove', { userId: ws.bobId, confirm: true });
    expect(answer).toMatchObject({ status: 200, body: { data: { userId: ws.bobId, removed: true, revokedKeys: 2 } } });
    for (const key of ws.bobKeys) expect((await t.rest(key, 'GET', '/api/v1/brand')).status).toBe(401);
    expect((await t.rest(ws.key, 'GET', '/api/v1/brand')).status).toBe(200);
    const listed = (await t.rest(ws.key, 'GET', '/api/v1/team')).body.data as { members: Array<{ userId: string }>; seats: { used: number } };
    expect(listed.members.map((m) => m.userId)).toEqual([ws.ownerId]);
    expect(listed.seats.used).toBe(1);
    // The account stays: only its access to this workspace ended.
    expect(await t.db.selectFrom('users').select('id').where('id', '=', ws.bobId).executeTakeFirst()).toEqual({ id: ws.bobId });
  });

  it('says so when the caller is removing itself', async () => {
    const ws = await team();
    // Only an owner's key reaches remove_team_member: Bob becomes one and makes a third key with every scope.
    await t.user(ws.workspaceId, ws.bobEmail, 'owner');
    const { key } = await createApiKey(t.db, t.clock, { workspaceId: ws.workspaceId, scopes: ALL_SCOPES, name: 'admin', userId: ws.bobId });
    const mcp = await t.mcpTool(key, 'remove_team_member', { userId: ws.bobId });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toMatch(/revoke the 3 API keys they created in it\. That includes the key making this call\.$/);
  });

  it('refuses to remove the last owner, and allows it once there is another', async () => {
    const ws = await team();
    const refused = await t.rest(ws.key, 'POST', '/api/v1/team/remove', { userId: ws.ownerId, confirm: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      `userId: ${ws.ownerId} (owner-${ws.workspaceId}@acme.example) is the last owner of this workspace and cannot be removed; add another owner first (invite_team_member with role owner)`,
    );
    await t.user(ws.workspaceId, ws.bobEmail, 'owner');
    const removed = await t.rest(ws.key, 'POST', '/api/v1/team/remove', { userId: ws.ownerId, confirm: true });
    expect(removed).toMatchObject({ status: 200, body: { data: { removed: true, revokedKeys: 0 } } });
  });

  it("answers 404 for a member of another workspace exactly as for an unknown user, and leaves them alone", async () => {
    const mine = await team();
    const theirs = await team();
    for (const confirm of [false, true]) {
      const foreign = await t.rest(mine.key, 'POST', '/api/v1/team/remove', { userId: theirs.bobId, confirm });
      expect(foreign).toMatchObject({ status: 404, body: { error: `member ${theirs.bobId} not found in this workspace` } });
    }
    const unknown = await t.rest(mine.key, 'POST', '/api/v1/team/remove', { userId: 'usr_nope', confirm: true });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'member usr_nope not found in this workspace' } });
    expect((await t.rest(theirs.bobKeys[0], 'GET', '/api/v1/brand')).status).toBe(200);
  });
});
