import { describe, expect, it } from 'vitest';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { commit, markWritten, ok } from '../content/calendarSupport.js';

const fixture = serviceAndBrowser();

describe.skipIf(!hasChromium)('content pages in a real browser', () => {
  it('reschedules an article from the calendar and shows it on its new day', async () => {
    const { ws, page } = await fixture.signedInOwner();
    await ok(fixture.t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
    await commit(fixture.t, ws, 1);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/content?view=list`);
    await page.getByLabel('New time for Article 1').fill('2026-11-27T10:00');
    await page.getByRole('row', { name: /Article 1/ }).getByRole('button', { name: 'Reschedule' }).click();
    await page.locator('#done').waitFor();
    expect(await page.locator('#done').textContent()).toBe('Done: reschedule content.');
    await page.getByRole('link', { name: 'Month' }).click();
    expect(await page.locator('#day-2026-11-27').textContent()).toContain('Article 1');
    expect(await page.locator('#day-2026-11-23').textContent()).not.toContain('Article 1');
    await page.close();
  });

  it('publishes an article: the dry run first, then Confirm, then the published article with its preview', async () => {
    const { ws, page } = await fixture.signedInOwner();
    const [planned] = (await commit(fixture.t, ws, 1, 'Dental CRM')).planned;
    await markWritten(fixture.t, planned!.contentId);
    await ok(fixture.t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/content`);
    await page.getByRole('link', { name: 'Dental CRM 1' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('#dry-run').waitFor();
    expect(await page.locator('#dry-run').textContent()).toContain('Blog');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#done').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dental CRM 1');
    expect(await page.locator('#done').textContent()).toBe('Done: publish content.');
    expect(await page.locator('#preview h4').first().textContent()).toBe('One');
    await page.getByRole('button', { name: 'Publish again' }).waitFor();
    await page.close();
  });

  it('has no serious or critical accessibility problems on the content pages', async () => {
    const { ws, page } = await fixture.signedInOwner();
    const [planned] = (await commit(fixture.t, ws, 2)).planned;
    await markWritten(fixture.t, planned!.contentId);
    await ok(fixture.t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
    await ok(fixture.t, ws, 'POST', '/api/v1/content/publish', { contentId: planned!.contentId, confirm: true });
    await ok(fixture.t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' });
    const base = `${fixture.t.baseUrl}/w/${ws.workspaceId}`;
    for (const path of ['content', 'content?view=list', 'content/ideas', 'content/titles', 'content/policy', `content/articles/${planned!.contentId}`]) {
      await page.goto(`${base}/${path}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.close();
  });
});
