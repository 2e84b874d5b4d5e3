import { describe, expect, it } from 'vitest';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';

const fixture = serviceAndBrowser();

// Seven pages in a browser under load: more than the default 20 seconds.
describe.skipIf(!hasChromium)('Brand and Publishing in a real browser', { timeout: 60_000 }, () => {
  it('edits the brand profile and confirms the brand reviewed', async () => {
    const { ws, page } = await fixture.signedInOwner();
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/brand`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Profile');
    await page.getByRole('combobox', { name: /^Tone/ }).selectOption('technical');
    await page.getByLabel(/Primary color/).fill('#112233');
    await page.getByRole('combobox', { name: /^Local business/ }).selectOption('true');
    await page.getByLabel(/Service area/).fill('Hamburg');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.locator('#done').waitFor();
    expect(await page.getByLabel(/Primary color/).inputValue()).toBe('#112233');
    await page.getByRole('button', { name: 'Confirm brand reviewed' }).click();
    await page.getByText('Reviewed: the brand was confirmed on').waitFor();
    const brand = (await fixture.t.rest(ws.key, 'GET', '/api/v1/brand')).body.data as { profile: Record<string, unknown>; meta: { reviewed: boolean } };
    expect(brand.profile).toMatchObject({ tone: 'technical', primaryColor: '#112233', localBusiness: true, serviceArea: 'Hamburg' });
    expect(brand.meta.reviewed).toBe(true);
    await page.close();
  });

  it('creates a destination, reads its signing secret once, and sends it a test event', async () => {
    const { ws, page } = await fixture.signedInOwner();
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/publishing`);
    await page.getByLabel('Name', { exact: true }).fill('Main blog');
    await page.getByLabel(/Endpoint URL/).fill('https://receiver.example/hook');
    await page.getByLabel(/Site URL/).fill('https://acme.example/blog');
    await page.getByRole('button', { name: 'Create destination' }).click();
    expect(await page.locator('#result').textContent()).toMatch(/whsec_/);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('row', { name: /Main blog/ }).getByRole('button', { name: 'Send test event to Main blog' }).click();
    await page.locator('#done').waitFor();
    expect(await fixture.t.db.selectFrom('deliveries').select(['event', 'state']).where('workspace_id', '=', ws.workspaceId).execute()).toEqual([{ event: 'test', state: 'pending' }]);
    await page.getByRole('link', { name: 'Delivery log' }).first().click();
    await page.getByRole('row', { name: /Main blog test/ }).waitFor();
    await page.close();
  });

  it('has no serious accessibility problems on any Brand or Publishing page', async () => {
    const { ws, page } = await fixture.signedInOwner();
    const destinationId = String(
      ((await fixture.t.rest(ws.key, 'POST', '/api/v1/destinations', { name: 'Main blog', endpointUrl: 'https://receiver.example/hook' })).body.data as { destinationId: string }).destinationId,
    );
    await fixture.t.rest(ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
    await fixture.t.rest(ws.key, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: 'jargon', instead: 'plain words' });
    await fixture.t.rest(ws.key, 'POST', '/api/v1/brand/product', { name: 'Widget', description: 'A widget', category: 'core_product' });
    await fixture.t.rest(ws.key, 'POST', '/api/v1/brand/icp', { title: 'Ops lead', industry: 'Logistics', demographics: { seniority: 'senior' } });
    for (const path of ['brand', 'brand/identity', 'brand/icps', 'brand/products', 'brand/guidelines', 'publishing', 'publishing/deliveries']) {
      await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/${path}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.close();
  });
});
