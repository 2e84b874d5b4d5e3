import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS, pageUrl } from '../../src/web/areas.js';
import { START_TIME, TestService, type TestWorkspace } from '../support/harness.js';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { Seeder } from '../visibility/metrics/seed.js';

const PASSWORD = 'correct horse battery';
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

let t: TestService;
let browser: Browser;
let ws: TestWorkspace;
const email = 'owner@acme.example';

beforeAll(async () => {
  if (!hasChromium) return;
  t = await TestService.start({ env: { ENGINE_CHATGPT_API_KEY: 'k' } });
  ws = await t.workspace();
  const seed = new Seeder(t, ws);
  const query = await seed.query('best analytics tool');
  await seed.competitor('Globex', 'https://globex.example');
  await seed.answer('2026-11-16T10:00:00Z', 'chatgpt', query, 'Acme Analytics is the best. Globex is fine.', ['https://acme.example/blog'], { brand: { label: 'positive', score: 80 } });
  t.clock.set(START_TIME);
  await t.user(ws.workspaceId, email, 'owner');
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${t.baseUrl}/`);
  await page.waitForURL(/\/signin\?next=/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.baseUrl}/w/${ws.workspaceId}`);
}

describe.skipIf(!hasChromium)('overview and visibility in a real browser', () => {
  it('adds a query on the Queries page, sees it listed, and hides it', async () => {
    const page = await browser.newPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Visibility' }).click();
    await page.getByRole('navigation', { name: 'Visibility' }).getByRole('link', { name: 'Queries' }).click();
    await page.getByLabel('Query').fill('crm for small agencies');
    await page.getByRole('button', { name: 'Add query' }).click();
    await page.waitForURL(/done=add_query/);
    const row = page.getByRole('row').filter({ hasText: 'crm for small agencies' });
    expect(await row.textContent()).toContain('in ideas');
    await row.getByRole('button', { name: 'Hide “crm for small agencies”' }).click();
    await page.waitForURL(/done=update_query/);
    expect(await page.getByRole('row').filter({ hasText: 'crm for small agencies' }).textContent()).toContain('hidden from ideas');
    await page.close();
  });

  it('every page of the two areas passes axe without serious or critical violations', async () => {
    // axe is injected from outside the page; the pages' CSP rightly forbids any script of their own.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await signIn(page);
    const paths = AREAS.filter((area) => area.id === 'overview' || area.id === 'visibility').flatMap((area) => area.pages.map((entry) => entry.path));
    for (const path of paths) {
      await page.goto(`${t.baseUrl}${pageUrl(ws.workspaceId, path)}`);
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const results = await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> } }).axe.run();
        return results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
      });
      expect(violations, path).toEqual([]);
    }
    await context.close();
  });
});
