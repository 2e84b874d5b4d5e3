import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { createUser, OperatorError } from '../../src/operator.js';
import { PASSWORD, TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

// Attacks through invite links: guessing a user's password through the accept form, telling from the page whether an
// address has an account, and planting an account for an address before its owner is given a workspace.

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function inviteLink(ws: TestWorkspace, email: string, role: 'owner' | 'member' = 'member'): Promise<string> {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email, role, confirm: true });
  expect(answer.status).toBe(200);
  return new URL((answer.body.data as { acceptUrl: string }).acceptUrl).pathname;
}

async function accept(visitor: Visitor, path: string, password: string): Promise<Response> {
  const csrf = hiddenFields(await (await visitor.request(path)).text())._csrf!;
  return visitor.request(path, { method: 'POST', form: { _csrf: csrf, password } });
}

async function memberOf(workspaceId: string, email: string): Promise<boolean> {
  const row = await t.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.role')
    .where('memberships.workspace_id', '=', workspaceId)
    .where('users.email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

describe('an invite link cannot be used to guess a password', () => {
  it('the accept form counts against the sign-in limits: after ten wrong passwords even the right one is refused', async () => {
    const victims = await t.workspace({ name: 'Victim Co' });
    const victim = `victim-${victims.workspaceId}@corp.example`;
    await t.user(victims.workspaceId, victim, 'owner');
    const attackers = await t.workspace({ name: 'Attacker Co' });
    const link = await inviteLink(attackers, victim);
    const attacker = new Visitor(t.baseUrl);
    for (let i = 0; i < 10; i++) expect((await accept(attacker, link, `wrong guess ${i}`)).status).toBe(401);
    const eleventh = await accept(attacker, link, PASSWORD);
    expect(eleventh.status).toBe(429);
    expect(await memberOf(attackers.workspaceId, victim)).toBe(false);
    // The counter is the sign-in's own: the victim's own sign-in is held back too, as after ten wrong sign-ins.
    expect((await new Visitor(t.baseUrl).signIn(victim, PASSWORD)).status).toBe(429);
  });

  it('a wrong password answers as sign-in does and never joins; the right one signs in and accepts', async () => {
    const ws = await t.workspace();
    const email = `known-${ws.workspaceId}@corp.example`;
    await t.user((await t.workspace()).workspaceId, email, 'member');
    const link = await inviteLink(ws, email);
    const visitor = new Visitor(t.baseUrl);
    const wrong = await accept(visitor, link, 'not the password');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('That email and password do not match an account.');
    expect(await memberOf(ws.workspaceId, email)).toBe(false);
    const right = await accept(visitor, link, PASSWORD);
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(`/w/${ws.workspaceId}`);
    expect(await memberOf(ws.workspaceId, email)).toBe(true);
  });

  it('the page reads the same whether or not the address has an account', async () => {
    const ws = await t.workspace();
    const known = `has-account-${ws.workspaceId}@corp.example`;
    await t.user((await t.workspace()).workspaceId, known, 'member');
    const unknown = `no-account-${ws.workspaceId}@corp.example`;
    const pageFor = async (email: string) => {
      const link = await inviteLink(ws, email);
      const text = await (await new Visitor(t.baseUrl).request(link)).text();
      return text.replaceAll(email, 'EMAIL').replace(/name="_csrf" value="[^"]+"/, 'CSRF');
    };
    expect(await pageFor(known)).toBe(await pageFor(unknown));
  });

  it('signed in as someone else, the invite cannot be accepted for them', async () => {
    const ws = await t.workspace();
    const other = await t.signedInOwner();
    const link = await inviteLink(ws, `invitee-${ws.workspaceId}@corp.example`);
    const page = await other.visitor.request(link);
    expect(await page.text()).toContain('this invite is for another email');
    const csrf = hiddenFields(await (await other.visitor.request(link)).text())._csrf!;
    expect((await other.visitor.request(link, { method: 'POST', form: { _csrf: csrf } })).status).toBe(403);
    expect(await memberOf(ws.workspaceId, other.email)).toBe(false);
  });

  it('signed in as the invited email, one button accepts, with no password asked', async () => {
    const ws = await t.workspace();
    const invitee = await t.signedInOwner();
    const link = await inviteLink(ws, invitee.email);
    const page = await (await invitee.visitor.request(link)).text();
    expect(page).not.toContain('type="password"');
    const answer = await invitee.visitor.request(link, { method: 'POST', form: { _csrf: hiddenFields(page)._csrf! } });
    expect(answer.status).toBe(303);
    expect(await memberOf(ws.workspaceId, invitee.email)).toBe(true);
  });
});

describe('an account planted through an invite link is not handed a workspace', () => {
  it('the operator adding the address to a workspace is refused while the account is unverified, and a reset ends the planter\u2019s access', async () => {
    const attackers = await t.workspace({ name: 'Attacker Co' });
    const victims = await t.workspace({ name: 'Victim Co' });
    const victim = `ceo-${victims.workspaceId}@corp.example`;
    // The owner of Attacker Co invites the victim's address and accepts the link with a password of their own.
    const planter = new Visitor(t.baseUrl);
    expect((await accept(planter, await inviteLink(attackers, victim), 'the planted password')).status).toBe(303);
    const planted = await t.db.selectFrom('users').select(['id', 'verified_at']).where('email', '=', victim).executeTakeFirstOrThrow();
    expect(planted.verified_at).toBeNull();
    const plantedKey = (await createApiKey(t.db, t.clock, { workspaceId: attackers.workspaceId, userId: planted.id, scopes: ['read:content'], name: 'kept' })).key;

    const refused = createUser(t.db, t.clock, { email: victim, password: 'the real password', workspaceId: victims.workspaceId, role: 'owner' });
    await expect(refused).rejects.toBeInstanceOf(OperatorError);
    await expect(refused).rejects.toThrow(/never shown to belong to that email's owner.*--reset-unverified/);
    expect(await memberOf(victims.workspaceId, victim)).toBe(false);

    const taken = await createUser(t.db, t.clock, { email: victim, password: 'the real password', workspaceId: victims.workspaceId, role: 'owner', resetUnverified: true });
    expect(taken).toMatchObject({ userId: planted.id, existingUser: true, reset: { sessions: 1, apiKeys: 1, appConnections: 0 } });
    // The planter's session, key and password are dead; the victim's own password opens Victim Co.
    expect((await planter.request(`/w/${attackers.workspaceId}`)).status).toBe(303);
    expect((await t.rest(plantedKey, 'GET', '/api/v1/brand')).status).toBe(401);
    expect((await new Visitor(t.baseUrl).signIn(victim, 'the planted password')).status).toBe(401);
    const owner = new Visitor(t.baseUrl);
    expect((await owner.signIn(victim, 'the real password')).status).toBe(303);
    expect((await owner.request(`/w/${victims.workspaceId}`)).status).toBe(200);
    expect((await t.db.selectFrom('users').select('verified_at').where('id', '=', planted.id).executeTakeFirstOrThrow()).verified_at).toBe(t.clock.now());
  });

  it('an account the operator made is verified, and adding it elsewhere keeps its password', async () => {
    const first = await t.workspace();
    const email = `made-${first.workspaceId}@corp.example`;
    await t.user(first.workspaceId, email, 'member');
    const second = await t.workspace();
    const added = await createUser(t.db, t.clock, { email, password: 'ignored for a verified one', workspaceId: second.workspaceId, role: 'member' });
    expect(added).toEqual({ userId: expect.stringMatching(/^usr_/), existingUser: true });
    expect((await new Visitor(t.baseUrl).signIn(email, PASSWORD)).status).toBe(303);
  });
});
