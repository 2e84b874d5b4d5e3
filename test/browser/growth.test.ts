import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPlacement, members, site } from '../network/support.js';
import { insertProspect } from '../outreach/support.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { insertThread } from '../social/support.js';
import { hasChromium, launchChromium } from '../support/chromium.js';
import { TestService } from '../support/harness.js';

const PASSWORD = 'correct horse battery';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${t.baseUrl}/`);
  await page.waitForURL(/\/signin\?next=/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/w\//);
}

/** axe-core's serious and critical findings on the open page (evaluated through the debugger, which the CSP does not govern). */
async function seriousViolations(page: Page): Promise<string[]> {
  return page.evaluate(async (source) => {
    // Indirect eval: axe arrives as source text, since the page's CSP forbids adding a script tag.
    (0, eval)(source);
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const result = await axe.run();
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  }, AXE);
}

describe.skipIf(!hasChromium)('the Growth pages in a real browser', () => {
  it('moves a social thread’s status and an outreach prospect’s stage, on pages axe finds no serious problem with', async () => {
    const ws = await site(t, 'Acme');
    const other = await site(t, 'Rival');
    await members(t, ws, other);
    await insertPlacement(t, ws, other);
    const threadId = await insertThread(t.db, t.clock, ws.workspaceId);
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { domain: 'clinicblog.example' });
    await insertRepurposeDraft(t, ws.workspaceId);
    const page = await browser.newPage();
    await signIn(page, `owner-${ws.workspaceId}@${ws.domain}`);
    const base = `${t.baseUrl}/w/${ws.workspaceId}/growth`;

    await page.goto(`${base}/social`);
    const thread = page.locator(`#thread-${threadId}`);
    await thread.getByLabel('Move to').selectOption('dismissed');
    await thread.getByRole('button', { name: 'Move' }).click();
    await page.locator('#done').waitFor();
    expect(await thread.locator('.status').textContent()).toBe('dismissed');
    expect((await t.db.selectFrom('social_threads').select('status').where('id', '=', threadId).executeTakeFirstOrThrow()).status).toBe('dismissed');

    await page.goto(`${base}/outreach`);
    await page.getByLabel('Move clinicblog.example to').selectOption('contacted');
    await page.locator(`#move-${prospectId}`).getByRole('button', { name: 'Move' }).click();
    await page.locator('#done').waitFor();
    expect(await page.locator(`#prospect-${prospectId} .stage`).textContent()).toMatch(/^contacted/);

    for (const path of ['', '/outreach', '/network', '/social', '/repurpose']) {
      await page.goto(`${base}${path}`);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await page.close();
  });
});
