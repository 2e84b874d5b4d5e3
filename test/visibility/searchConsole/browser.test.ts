import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../support/browserSession.js';
import { TestService } from '../../support/harness.js';
import { FakeGoogle } from '../../integrations/fakes/google/searchConsole.js';
import { hasChromium, launchChromium } from '../../support/chromium.js';


let google: FakeGoogle;
let t: TestService;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  google = await FakeGoogle.start();
  t = await TestService.start({ writer: false, env: google.env() });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await google?.close();
});

describe.skipIf(!hasChromium)('connecting Search Console in a real browser', () => {
  it("follows Connect to Google's consent screen under the page's CSP and comes back connected", async () => {
    google.sites = [{ siteUrl: 'sc-domain:acme.example', permissionLevel: 'siteOwner' }];
    const ws = await t.workspace();
    const email = `owner-${ws.workspaceId}@acme.example`;
    await t.user(ws.workspaceId, email, 'owner');
    // The fake Google serves the test CA's certificate, which Chromium does not know.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await signIn(page, t.baseUrl, email, `/w/${ws.workspaceId}/settings`);

    await page.getByRole('button', { name: 'Connect Search Console' }).click();
    // Back on the Settings page once Google's redirect came home: the property shows.
    const property = page.locator('#search-console-property');
    await property.waitFor({ timeout: 10_000 });
    expect(await property.textContent()).toBe('sc-domain:acme.example');
    expect(page.url()).toBe(`${t.baseUrl}/w/${ws.workspaceId}/settings`);
    expect(google.authRequests.at(-1)?.get('client_id')).toBe(google.clientId);
    await context.close();
  });
});
