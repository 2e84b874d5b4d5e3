import { expect } from 'vitest';
import { TestService } from '../../support/harness.js';
import { hiddenFields, type Visitor } from '../../support/visitor.js';
import { FakeGoogle } from '../../integrations/fakes/google/searchConsole.js';

export interface SearchConsoleSetup {
  google: FakeGoogle;
  t: TestService;
}

/** A local Google (authorization, token and Search Console API) and a service configured to use it. */
export async function startWithGoogle(): Promise<SearchConsoleSetup> {
  const google = await FakeGoogle.start();
  return { google, t: await TestService.start({ writer: false, env: google.env() }) };
}

export async function stopWithGoogle({ google, t }: SearchConsoleSetup): Promise<void> {
  await t.close();
  await google.close();
}

/** Presses Connect on the Settings page: the service's redirect to Google's consent screen. */
export async function pressConnect(visitor: Visitor, workspaceId: string): Promise<Response> {
  const page = await visitor.request(`/w/${workspaceId}/settings`);
  const csrf = hiddenFields(await page.text())._csrf!;
  return visitor.request(`/w/${workspaceId}/search-console/connect`, { method: 'POST', form: { _csrf: csrf } });
}

/** Google's consent screen (the fake consents at once): where it sends the browser back. */
export async function consentAt(authorizationUrl: string): Promise<string> {
  const consent = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  return consent.headers.get('location')!;
}

/** The whole flow as the owner's browser goes through it; answers the service's reply to Google's redirect. */
export async function connectSearchConsole(visitor: Visitor, workspaceId: string): Promise<Response> {
  const started = await pressConnect(visitor, workspaceId);
  expect(started.status).toBe(303);
  return visitor.request(await consentAt(started.headers.get('location')!));
}

export async function connection(t: TestService, workspaceId: string) {
  return t.db.selectFrom('search_console_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}
