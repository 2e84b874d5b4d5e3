import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { seedGrant } from '../support/grants.js';
import { TestService, type TestWorkspace } from '../support/harness.js';

const PASSWORD = 'correct horse battery';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WORKSPACE_PAGES = ['settings', 'team', 'keys', 'apps', 'approvals', 'billing', 'support', 'export'];

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

async function ownerOn(path: string, options: { bypassCSP?: boolean } = {}): Promise<{ ws: TestWorkspace; userId: string; page: Page }> {
  const ws = await t.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  const userId = await t.user(ws.workspaceId, email, 'owner');
  const page = await (await browser.newContext(options)).newPage();
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
    await page.context().close();
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
    await page.context().close();
  });

  it('has no serious or critical accessibility violations on any workspace page', async () => {
    // axe is injected as a script, which the pages' CSP forbids: this context alone bypasses it.
    const { ws, userId, page } = await ownerOn('settings', { bypassCSP: true });
    const { grantId } = await seedGrant(t, { workspaceId: ws.workspaceId, userId, clientName: 'Claude Desktop' });
    const added = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Acme', websiteUrl: 'https://acme-rival.example' });
    const competitorId = (added.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
    const asked = await t.rest(ws.key, 'POST', '/api/v1/competitors/remove', { competitorId });
    const approvalId = String((asked.body.data as { approvalId: string }).approvalId);
    for (const path of [...WORKSPACE_PAGES, `apps/${grantId}/revoke`, `approvals/${approvalId}`]) {
      await page.goto(`${t.baseUrl}/w/${ws.workspaceId}/${path}`);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
        return (await axe.run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      });
      expect(violations, path).toEqual([]);
    }
    await page.context().close();
  });
});
