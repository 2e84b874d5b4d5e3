import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/web/areas.js';
import { pageUrl } from '../../src/web/paths.js';
import { accessibilityProblems } from '../support/axe.js';
import { serviceAndBrowser, signIn } from '../support/browserSession.js';
import { hasChromium } from '../support/chromium.js';
import { START_TIME, type TestWorkspace } from '../support/harness.js';
import { Seeder } from '../visibility/metrics/seed.js';

const fixture = serviceAndBrowser({ env: { ENGINE_CHATGPT_API_KEY: 'k' } });
let ws: TestWorkspace;
const email = 'owner@acme.example';

beforeAll(async () => {
  if (!hasChromium) return;
  const t = fixture.t;
  ws = await t.workspace();
  const seed = new Seeder(t, ws);
  const query = await seed.query('best analytics tool');
  await seed.competitor('Globex', 'https://globex.example');
  await seed.answer('2026-11-16T10:00:00Z', 'chatgpt', query, 'Acme Analytics is the best. Globex is fine.', ['https://acme.example/blog'], { brand: { label: 'positive', score: 80 } });
  t.clock.set(START_TIME);
  await t.user(ws.workspaceId, email, 'owner');
}, 60_000);

describe.skipIf(!hasChromium)('overview and visibility in a real browser', () => {
  it('adds a query on the Queries page, sees it listed, and hides it', async () => {
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
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
    const page = await fixture.browser.newPage();
    await signIn(page, fixture.t.baseUrl, email);
    const paths = AREAS.filter((area) => area.id === 'overview' || area.id === 'visibility').flatMap((area) => area.pages.map((entry) => entry.path));
    for (const path of paths) {
      await page.goto(`${fixture.t.baseUrl}${pageUrl(ws.workspaceId, path)}`);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await page.close();
  });
});
