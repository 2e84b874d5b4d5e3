import { parseSetCookie, type SetCookie } from 'cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, START_TIME, TestService } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';

const SESSION_COOKIE = 'sl_session';
const DAY = 86_400_000;

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** The session cookie a sign-in sets, as the browser reads it. */
async function sessionCookieOf(service: TestService): Promise<SetCookie> {
  const ws = await service.workspace();
  const email = `owner-${ws.workspaceId}@acme.example`;
  await service.user(ws.workspaceId, email, 'owner');
  const signedIn = await new Visitor(service.baseUrl).signIn(email, PASSWORD);
  expect(signedIn.status).toBe(303);
  const line = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  expect(line, 'sign-in sets the session cookie').toBeDefined();
  return parseSetCookie(line!);
}

/** Whether a browser holding only this session cookie value reaches the workspace (else it is sent to sign in). */
async function reaches(workspaceId: string, sessionToken: string): Promise<boolean> {
  const replayed = new Visitor(t.baseUrl);
  replayed.plant(SESSION_COOKIE, sessionToken);
  const answer = await replayed.request(`/w/${workspaceId}`);
  if (answer.status === 200) return true;
  expect(answer.status).toBe(303);
  expect(answer.headers.get('location')).toMatch(/^\/signin\?next=/);
  return false;
}

describe('dashboard sessions', () => {
  it('a script on the page cannot read the session cookie, a cross-site form post does not carry it, and it covers every path', async () => {
    const cookie = await sessionCookieOf(t);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/' });
    // PUBLIC_URL is http here: a Secure cookie would never come back, so it is not marked so.
    expect(cookie.secure).not.toBe(true);
  });

  it('behind an https PUBLIC_URL the session cookie is never sent over plain http (Secure)', async () => {
    const behindTls = await TestService.start({ writer: false, env: { PUBLIC_URL: 'https://sightline.acme.example' } });
    try {
      expect(await sessionCookieOf(behindTls)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'lax', path: '/' });
    } finally {
      await behindTls.close();
    }
  });

  it('a session cookie planted before sign-in is not the session after it', async () => {
    const owner = await t.signedInOwner();
    const victim = new Visitor(t.baseUrl);
    const planted = 'planted-by-someone-who-will-replay-it-later-000';
    victim.plant(SESSION_COOKIE, planted);
    expect((await victim.signIn(owner.email, PASSWORD)).status).toBe(303);
    expect(victim.cookie(SESSION_COOKIE)).not.toBe(planted);
    expect(await reaches(owner.workspaceId, victim.cookie(SESSION_COOKIE)!)).toBe(true);
    // Whoever planted it replays it: it does not reach the victim's workspace.
    expect(await reaches(owner.workspaceId, planted)).toBe(false);
  });

  it('a session cookie replayed after sign-out does not sign anyone in', async () => {
    const owner = await t.signedInOwner();
    const token = owner.visitor.cookie(SESSION_COOKIE)!;
    expect(await reaches(owner.workspaceId, token)).toBe(true);
    const csrf = await owner.visitor.csrf(`/w/${owner.workspaceId}`);
    const signedOut = await owner.visitor.request('/signout', { method: 'POST', form: { _csrf: csrf } });
    expect(signedOut.status).toBe(303);
    expect(owner.visitor.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await reaches(owner.workspaceId, token)).toBe(false);
  });

  it('a session cookie older than 14 days leads to the sign-in page', async () => {
    const owner = await t.signedInOwner();
    const token = owner.visitor.cookie(SESSION_COOKIE)!;
    t.clock.advance(14 * DAY + 1);
    try {
      expect(await reaches(owner.workspaceId, token)).toBe(false);
    } finally {
      t.clock.set(START_TIME);
    }
  });
});
