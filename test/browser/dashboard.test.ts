import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestApproval } from '../../src/approvals/approvals.js';
import { loadBrandRow } from '../../src/brand/readBrand.js';
import { serviceAndBrowser, signIn } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { PASSWORD, type TestWorkspace } from '../support/harness.js';
import { registryWithTestOperations } from '../support/testOperations.js';

const fixture = serviceAndBrowser({ registry: registryWithTestOperations() });

async function ownerWorkspace(): Promise<{ ws: TestWorkspace; email: string }> {
  const ws = await fixture.t.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  await fixture.t.user(ws.workspaceId, email, 'owner');
  return { ws, email };
}

describe.skipIf(!hasChromium)('dashboard in a real browser', () => {
  it('signs in, refuses a wrong password, and signs out', async () => {
    const { ws, email } = await ownerWorkspace();
    const page = await fixture.browser.newPage();
    await page.goto(`${fixture.t.baseUrl}/`);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('That email and password do not match an account.');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${fixture.t.baseUrl}/w/${ws.workspaceId}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Analytics');
    const headers = (await page.request.get(`${fixture.t.baseUrl}/w/${ws.workspaceId}`)).headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/keys`);
    await page.waitForURL(/\/signin\?next=/);
    await page.close();
  });

  it('creates a key that works once shown, and revokes it', async () => {
    const { ws, email } = await ownerWorkspace();
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/keys`);
    await page.getByLabel('Name').fill('Browser key');
    await page.getByLabel('read:content').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^slk_/);
    expect((await fixture.t.rest(key, 'GET', '/api/v1/brand')).status).toBe(200);
    expect((await fixture.t.rest(key, 'GET', '/api/v1/team')).status).toBe(403);
    const row = page.getByRole('row', { name: /Browser key/ });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /Browser key.*revoked/ }).waitFor();
    expect((await fixture.t.rest(key, 'GET', '/api/v1/brand')).status).toBe(401);
    await page.close();
  });

  it('lets the owner approve a pending change at its approvalUrl, which then runs', async () => {
    const { ws, email } = await ownerWorkspace();
    const requested = await fixture.t.rest(ws.key, 'POST', '/api/v1/test/rename-brand', { name: 'Approved Name' });
    const approvalId = String((requested.body.data as { approvalId: string }).approvalId);
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    await page.goto(`${fixture.t.baseUrl}/approvals/${approvalId}`);
    await page.waitForURL(`${fixture.t.baseUrl}/w/${ws.workspaceId}/approvals/${approvalId}`);
    expect(await page.locator('#approval-state').textContent()).toBe('pending');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('#approval-state', { hasText: 'done' }).waitFor();
    expect((await loadBrandRow(fixture.t.db, ws.workspaceId)).name).toBe('Approved Name');
    await page.close();
  });

  it('shows a member the state of a pending change without the buttons', async () => {
    const { ws } = await ownerWorkspace();
    const memberEmail = `member-${ws.workspaceId}@acme.example`;
    await fixture.t.user(ws.workspaceId, memberEmail, 'member');
    const { approvalId } = await requestApproval(fixture.t.db, fixture.t.clock, {
      workspaceId: ws.workspaceId,
      operationId: 'rename_brand_for_test',
      input: { name: 'Member cannot' },
      summary: 'Would rename the brand',
      requestedBy: { apiKeyId: ws.keyId, userId: null },
    });
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, memberEmail);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/approvals/${approvalId}`);
    await page.getByText('Waiting for an owner of this workspace to decide.').waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.close();
  });

  it('accepts an invite: the link creates the account and joins the workspace', async () => {
    const { ws } = await ownerWorkspace();
    const invited = await fixture.t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'newcomer@acme.example', confirm: true });
    const acceptPath = new URL(String((invited.body.data as { acceptUrl: string }).acceptUrl)).pathname;
    const context = await fixture.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fixture.t.baseUrl}${acceptPath}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Join Acme Analytics');
    await page.getByLabel(/Password/).fill('a long new password');
    await page.getByRole('button', { name: 'Accept and join' }).click();
    await page.waitForURL(`${fixture.t.baseUrl}/w/${ws.workspaceId}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Analytics');
    // The team list needs manage:org (the spec's scope for get_team), so the owner's view shows the new member.
    const team = await fixture.t.rest(ws.key, 'GET', '/api/v1/team');
    expect((team.body.data as { members: Array<{ email: string; role: string }> }).members).toContainEqual(expect.objectContaining({ email: 'newcomer@acme.example', role: 'member' }));
    await page.goto(`${fixture.t.baseUrl}${acceptPath}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Invite not valid');
    await context.close();
  });

  it('consents to an MCP client: the browser returns to the client with a code', async () => {
    const { ws, email } = await ownerWorkspace();
    const callbacks: string[] = [];
    const receiver = createServer((req, res) => {
      callbacks.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    try {
      const registered = await fetch(`${fixture.t.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'Browser MCP client' }),
      });
      const { client_id: clientId } = (await registered.json()) as { client_id: string };
      const page = await fixture.browser.newPage();
      await signIn(page, fixture.t.baseUrl, email);
      const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'xyz' });
      await page.goto(`${fixture.t.baseUrl}/oauth/authorize?${query.toString()}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect Browser MCP client');
      await page.getByLabel('manage:org').uncheck();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(/\/callback\?/);
      const back = new URL(callbacks[0]!, redirectUri);
      expect(back.searchParams.get('state')).toBe('xyz');
      expect(back.searchParams.get('iss')).toBe(fixture.t.baseUrl);
      const code = await fixture.t.db.selectFrom('oauth_codes').select(['scopes', 'workspace_id']).executeTakeFirstOrThrow();
      expect(code.workspace_id).toBe(ws.workspaceId);
      expect(code.scopes.split(' ')).not.toContain('manage:org');
      await page.close();
    } finally {
      receiver.close();
    }
  });

  it('approves a device login at /device by typing the code', async () => {
    const { ws, email } = await ownerWorkspace();
    const started = await fixture.t.rest(undefined, 'POST', '/api/v1/auth/device/start', { client_id: 'sightline-cli' });
    const { device_code: deviceCode, user_code: userCode } = started.body.data as { device_code: string; user_code: string };
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    await page.goto(`${fixture.t.baseUrl}/device`);
    await page.getByLabel('The code your command line shows').fill(userCode.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('sightline-cli asks for an API key').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device connected' }).waitFor();
    fixture.t.clock.advance(10_000);
    const polled = await fixture.t.rest(undefined, 'POST', '/api/v1/auth/device/poll', { device_code: deviceCode });
    expect(polled.status).toBe(200);
    expect((polled.body.data as { workspace_id: string }).workspace_id).toBe(ws.workspaceId);
    await page.close();
  });
});
