import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { commit, markWritten, ok } from '../content/calendarSupport.js';

const PASSWORD = 'correct horse battery';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

async function signedInPage(options: { bypassCSP?: boolean } = {}): Promise<{ ws: TestWorkspace; page: Page }> {
  const ws = await t.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  await t.user(ws.workspaceId, email, 'owner');
  const page = await browser.newPage(options);
  await page.goto(`${t.baseUrl}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.baseUrl}/w/${ws.workspaceId}`);
  return { ws, page };
}

describe.skipIf(!hasChromium)('content pages in a real browser', () => {
  it('reschedules an article from the calendar and shows it on its new day', async () => {
    const { ws, page } = await signedInPage();
    await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
    await commit(t, ws, 1);
    await page.goto(`${t.baseUrl}/w/${ws.workspaceId}/content?view=list`);
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
    const { ws, page } = await signedInPage();
    const [planned] = (await commit(t, ws, 1, 'Dental CRM')).planned;
    await markWritten(t, planned!.contentId);
    await ok(t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
    await page.goto(`${t.baseUrl}/w/${ws.workspaceId}/content`);
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
    // axe is injected as a script, which the dashboard's CSP rightly forbids: this page alone bypasses it.
    const { ws, page } = await signedInPage({ bypassCSP: true });
    const [planned] = (await commit(t, ws, 2)).planned;
    await markWritten(t, planned!.contentId);
    await ok(t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
    await ok(t, ws, 'POST', '/api/v1/content/publish', { contentId: planned!.contentId, confirm: true });
    await ok(t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' });
    const base = `${t.baseUrl}/w/${ws.workspaceId}`;
    for (const path of ['content', 'content?view=list', 'content/ideas', 'content/titles', 'content/policy', `content/articles/${planned!.contentId}`]) {
      await page.goto(`${base}/${path}`);
      await page.addScriptTag({ content: AXE_SOURCE });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe;
        return (await axe.run()).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
      });
      expect(violations, path).toEqual([]);
    }
    await page.close();
  });
});
