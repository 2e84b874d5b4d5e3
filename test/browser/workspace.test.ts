import { describe, expect, it } from 'vitest';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { seedGrant } from '../support/grants.js';

const WORKSPACE_PAGES = ['settings', 'team', 'keys', 'apps', 'approvals', 'billing', 'support', 'export'];

const fixture = serviceAndBrowser();

describe.skipIf(!hasChromium)('workspace pages in a real browser', () => {
  it('invites a teammate: the dry run, then Confirm shows the accept link', async () => {
    const { ws, page } = await fixture.signedInOwner('team');
    await page.getByLabel('Email', { exact: true }).fill('teammate@acme.example');
    await page.getByLabel('Role').selectOption('owner');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('#dry-run').waitFor();
    expect(await fixture.t.db.selectFrom('team_invites').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const result = page.locator('#result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/\/invite\//);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('row', { name: /teammate@acme\.example owner/ }).waitFor();
    await page.context().close();
  });

  it('revokes a connected AI app after the question, and its token stops working', async () => {
    const { ws, userId, page } = await fixture.signedInOwner('apps');
    const { token } = await seedGrant(fixture.t, { workspaceId: ws.workspaceId, userId, clientName: 'Claude Desktop' });
    await page.reload();
    await page.getByRole('row', { name: /Claude Desktop/ }).waitFor();
    await page.getByRole('link', { name: 'Revoke Claude Desktop' }).click();
    await page.getByText(/Revoke Claude Desktop's access/).waitFor();
    await page.getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    await page.locator('#no-apps').waitFor();
    expect(await page.locator('#done').textContent()).toContain('revoke connected app');
    expect((await fixture.t.mcpRequest(token, 'tools/list')).status).toBe(401);
    await page.context().close();
  });

  it('has no serious or critical accessibility violations on any workspace page', async () => {
    const { ws, userId, page } = await fixture.signedInOwner('settings');
    const { grantId } = await seedGrant(fixture.t, { workspaceId: ws.workspaceId, userId, clientName: 'Claude Desktop' });
    const added = await fixture.t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Acme', websiteUrl: 'https://acme-rival.example' });
    const competitorId = (added.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
    const asked = await fixture.t.rest(ws.key, 'POST', '/api/v1/competitors/remove', { competitorId });
    const approvalId = String((asked.body.data as { approvalId: string }).approvalId);
    for (const path of [...WORKSPACE_PAGES, `apps/${grantId}/revoke`, `approvals/${approvalId}`]) {
      await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/${path}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.context().close();
  });
});
