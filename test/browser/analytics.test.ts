import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { recordCrawlerVisit } from '../../src/crawlers/visits.js';
import { collect } from '../analytics/support.js';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser, signIn } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { START_TIME, type TestWorkspace } from '../support/harness.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const DAY = 86_400_000;

const fixture = serviceAndBrowser({ env: { TRUST_PROXY: 'loopback' } });

/** An owner's workspace whose counter saw two page views today and one twenty days ago, two leads and a crawler plugin's report. */
async function seeded(): Promise<{ ws: TestWorkspace; email: string }> {
  const ws = await fixture.t.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  await fixture.t.user(ws.workspaceId, email, 'owner');
  const site = await siteIdOf(fixture.t.db, ws.workspaceId);
  const view = async (at: number, ip: string, path: string) => {
    fixture.t.clock.set(at);
    await collect(fixture.t.baseUrl, { s: site, t: 'pageview', u: `https://acme.example${path}` }, { ip });
    await fixture.t.service.counterIngest.flush();
  };
  await view(START_TIME - 20 * DAY, '198.51.100.50', '/old-post');
  await view(START_TIME, '198.51.100.51', '/blog/guide');
  await view(START_TIME, '198.51.100.52', '/blog/guide');
  for (const email of ['ann@example.com', 'bo@example.com']) {
    fixture.t.clock.advance(60_000);
    await collect(fixture.t.baseUrl, { s: site, t: 'lead', u: 'https://acme.example/contact', f: { email } }, { ip: '198.51.100.51' });
    await fixture.t.service.counterIngest.flush();
  }
  await recordCrawlerVisit(fixture.t.db, fixture.t.clock, ws.workspaceId, { userAgent: GPTBOT, path: '/blog/guide', plugin: 'wordpress/1.4.2' });
  return { ws, email };
}

/** The rows of a chart's numbers table, opened as a reader would. */
async function chartNumbers(page: Page, id: string): Promise<string[][]> {
  await page.locator(`#${id} summary`).click();
  return page.locator(`#${id}-table tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

describe.skipIf(!hasChromium)('the Analytics pages in a real browser', () => {
  it('activates Traffic, shows its chart with the numbers, and changes the window', async () => {
    const { ws, email } = await seeded();
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/analytics`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Traffic');
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.locator('#done').waitFor();
    expect(await page.locator('#traffic-chart svg').count()).toBe(1);
    const thirtyDays = await chartNumbers(page, 'traffic-chart');
    expect(thirtyDays).toHaveLength(30);
    expect(thirtyDays.map((row) => Number(row[1])).reduce((sum, value) => sum + value, 0)).toBe(3);
    expect(thirtyDays.at(-1)).toEqual(['21 Nov', '2']);

    await page.getByLabel('Window').selectOption('7');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/days=7/);
    expect(await page.locator('#window-days').textContent()).toContain('(7 days, UTC)');
    const week = await chartNumbers(page, 'traffic-chart');
    expect(week).toHaveLength(7);
    expect(week.map((row) => Number(row[1])).reduce((sum, value) => sum + value, 0)).toBe(2);
    await page.close();
  });

  it('activates Reports, switches the crawler source, reads engagement and pages through leads', async () => {
    const { ws, email } = await seeded();
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/analytics/reports`);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.locator('#narrative').waitFor();
    expect(await page.locator('#narrative').textContent()).toContain('2 leads');
    // No answer was checked in either window: no score, so no bar rather than a zero.
    expect(await page.locator('#score-chart').textContent()).toContain('No data yet.');

    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/analytics/sources`);
    await page.getByRole('button', { name: 'Use cms plugin' }).click();
    await page.locator('#done').waitFor();
    expect(await page.locator('#crawler-selected').textContent()).toBe('CMS plugin');

    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/analytics/engagement`);
    expect(await page.locator('#no-articles').count()).toBe(1);

    await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/analytics/leads?limit=1`);
    expect(await page.locator('#leads').textContent()).toContain('bo@example.com');
    await page.getByRole('link', { name: 'Older leads' }).click();
    await page.waitForURL(/page=2/);
    expect(await page.locator('#leads').textContent()).toContain('ann@example.com');
    await page.close();
  });

  it('has no serious or critical accessibility problems on any Analytics page, with data and with a refusal', async () => {
    const { ws, email } = await seeded();
    await fixture.t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    await fixture.t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'reports' });
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    for (const path of ['analytics', 'analytics?days=90', 'analytics?scope=site', 'analytics/engagement', 'analytics/sources', 'analytics/reports', 'analytics/leads']) {
      await page.goto(`${fixture.t.baseUrl}/w/${ws.workspaceId}/${path}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.close();
  });
});
