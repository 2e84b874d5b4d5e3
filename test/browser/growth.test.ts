import { describe, expect, it } from 'vitest';
import { insertPlacement, members, site } from '../network/support.js';
import { configureMailbox, insertDraft, insertProspect } from '../outreach/support.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { insertThread } from '../social/support.js';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser, signIn } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';

const fixture = serviceAndBrowser();

describe.skipIf(!hasChromium)('the Growth pages in a real browser', () => {
  it('moves a social thread’s status and an outreach prospect’s stage, edits an outreach draft in its thread, on pages axe finds no serious problem with', async () => {
    const ws = await site(fixture.t, 'Acme');
    const other = await site(fixture.t, 'Rival');
    await members(fixture.t, ws, other);
    await insertPlacement(fixture.t, ws, other);
    const threadId = await insertThread(fixture.t.db, fixture.t.clock, ws.workspaceId);
    const prospectId = await insertProspect(fixture.t.db, fixture.t.clock, ws.workspaceId, { domain: 'clinicblog.example' });
    await insertRepurposeDraft(fixture.t, ws.workspaceId);
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, `owner-${ws.workspaceId}@${ws.domain}`);
    const base = `${fixture.t.baseUrl}/w/${ws.workspaceId}/growth`;

    await page.goto(`${base}/social`);
    const thread = page.locator(`#thread-${threadId}`);
    await thread.getByLabel('Move to').selectOption('dismissed');
    await thread.getByRole('button', { name: 'Move' }).click();
    await page.locator('#done').waitFor();
    expect(await thread.locator('.status').textContent()).toBe('dismissed');
    expect((await fixture.t.db.selectFrom('social_threads').select('status').where('id', '=', threadId).executeTakeFirstOrThrow()).status).toBe('dismissed');

    await page.goto(`${base}/outreach`);
    await page.getByLabel('Move clinicblog.example to').selectOption('contacted');
    await page.locator(`#move-${prospectId}`).getByRole('button', { name: 'Move' }).click();
    await page.locator('#done').waitFor();
    expect(await page.locator(`#prospect-${prospectId} .stage`).textContent()).toMatch(/^contacted/);

    // The prospect's thread: a stored draft reopened, its edits saved, then checked before sending.
    await configureMailbox(fixture.t.db, fixture.t.clock, fixture.t.service.services.credentials, ws.workspaceId);
    const draftId = await insertDraft(fixture.t.db, fixture.t.clock, ws.workspaceId, prospectId);
    await page.locator(`#prospect-${prospectId}`).getByRole('link', { name: 'Thread and drafts' }).click();
    const draft = page.locator(`#edit-${draftId}`);
    await draft.getByLabel('Subject').fill('A guide for your dental readers');
    await draft.getByRole('button', { name: 'Save the draft' }).click();
    await page.locator('#done').waitFor();
    expect(await fixture.t.db.selectFrom('outreach_messages').select(['state', 'subject']).where('id', '=', draftId).executeTakeFirstOrThrow()).toEqual({ state: 'draft', subject: 'A guide for your dental readers' });
    expect(await accessibilityProblems(page), 'thread').toEqual([]);
    await page.locator(`#edit-${draftId}`).getByRole('button', { name: 'Check before sending' }).click();
    await page.locator('#dry-run').waitFor();
    expect(await page.locator('main').textContent()).toContain('A guide for your dental readers');

    for (const path of ['', '/outreach', '/network', '/social', '/repurpose']) {
      await page.goto(`${base}${path}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.close();
  });
});
