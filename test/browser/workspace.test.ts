import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { seedGrant } from '../support/grants.js';
import { TestService, type TestWorkspace } from '../support/harness.js';

const PASSWORD = 'correct horse battery';

let t: TestService;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  t = await TestService.start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function ownerOn(path: string): Promise<{ ws: TestWorkspace; userId: string; page: Page }> {
  const ws = await t.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  const userId = await t.user(ws.workspaceId, email, 'owner');
  const page = await browser.newPage();
  const target = `/w/${ws.workspaceId}/${path}`;
  await page.goto(`${t.baseUrl}/signin?next=${encodeURIComponent(target)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.baseUrl}${target}`);
  return { ws, userId, page };
}

describe.skipIf(!hasChromium)('workspace pages in a real browser', () => {
  it('invites a teammate: the dry run, then Confirm shows the accept link', async () => {
    const { ws, page } = await ownerOn('team');
    await page.getByLabel('Email', { exact: true }).fill('teammate@acme.example');
    await page.getByLabel('Role').selectOption('owner');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('#dry-run').waitFor();
    expect(await t.db.selectFrom('team_invites').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const result = page.locator('#result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/\/invite\//);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('row', { name: /teammate@acme\.example owner/ }).waitFor();
    await page.close();
  });

  it('revokes a connected AI app after the question, and its token stops working', async () => {
    const { ws, userId, page } = await ownerOn('apps');
    const { token } = await seedGrant(t, { workspaceId: ws.workspaceId, userId, clientName: 'Claude Desktop' });
    await page.reload();
    await page.getByRole('row', { name: /Claude Desktop/ }).waitFor();
    await page.getByRole('link', { name: 'Revoke Claude Desktop' }).click();
    await page.getByText(/Revoke Claude Desktop's access/).waitFor();
    await page.getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    await page.locator('#no-apps').waitFor();
    expect(await page.locator('#done').textContent()).toContain('revoke connected app');
    expect((await t.mcpRequest(token, 'tools/list')).status).toBe(401);
    await page.close();
  });
});
