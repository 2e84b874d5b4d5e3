import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';
import { FakeSmtp } from './fakes/mailServers.js';
import { MAILBOX_FORM } from './support.js';

let t: TestService;
let smtp: FakeSmtp;

// A sealing key, so that the test sees the passwords stored sealed.
const SECRETS_KEY = 'a'.repeat(64);

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({ writer: false, env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1', SECRETS_KEY } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the outreach mailbox page', () => {
  it("lets an owner save the mailbox (passwords sealed, never shown back), send a test and remove it; a member gets 403", async () => {
    const owner = await t.signedInOwner();
    const path = `/w/${owner.workspaceId}/outreach/mailbox`;
    const post = async (to: string, form: Record<string, string>) => owner.visitor.request(to, { method: 'POST', form: { _csrf: await owner.visitor.csrf(path), ...form } });
    expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain(`href="${path}"`);

    const bad = await post(path, { ...MAILBOX_FORM, smtpHost: '127.0.0.1', smtpPort: String(smtp.port), dailyCap: '0' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/dailyCap: must be from 1 to 500/);
    expect(await t.db.selectFrom('outreach_mailboxes').selectAll().execute()).toEqual([]);

    const saved = await post(path, { ...MAILBOX_FORM, smtpHost: '127.0.0.1', smtpPort: String(smtp.port) });
    expect(saved.status).toBe(200);
    const shown = await saved.text();
    expect(shown).toContain('Mailbox saved.');
    expect(shown).not.toContain('smtp-secret');
    const row = await t.db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow();
    expect(row.smtp_password).toMatch(/^sealed:v1:/);
    expect(row).toMatchObject({ from_address: 'ada@acme.example', daily_cap: 30, quiet_days: 14, imap_host: null });

    // A blank password keeps the stored one.
    await post(path, { ...MAILBOX_FORM, smtpHost: '127.0.0.1', smtpPort: String(smtp.port), smtpPassword: '', dailyCap: '10' });
    const kept = await t.db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ smtp_password: row.smtp_password, daily_cap: 10 });

    const test = await post(`${path}/test`, {});
    expect(test.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['ada@acme.example']);

    await t.user(owner.workspaceId, 'member@acme.example', 'member');
    const member = new Visitor(t.baseUrl);
    await member.signIn('member@acme.example', 'correct horse battery');
    expect((await member.request(path)).status).toBe(403);

    const removed = await post(`${path}/remove`, {});
    expect(removed.status).toBe(303);
    expect(await t.db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', owner.workspaceId).execute()).toEqual([]);
  });

  it.each([
    ['a mail host on a private address unless ALLOW_PRIVATE_TARGETS is set', {}, /127\.0\.0\.1 is not a public address \(private, loopback, link-local and reserved ranges and IPv4 embedded in IPv6 are refused; ALLOW_PRIVATE_TARGETS allows them\)/],
    ['a server without TLS unless MAIL_ALLOW_INSECURE is set', { ALLOW_PRIVATE_TARGETS: '1' }, /STARTTLS|TLS/],
  ])('refuses %s', async (_what, env, reason) => {
    const strict = await TestService.start({ writer: false, env });
    try {
      const owner = await strict.signedInOwner();
      const path = `/w/${owner.workspaceId}/outreach/mailbox`;
      const post = async (to: string, form: Record<string, string>) => owner.visitor.request(to, { method: 'POST', form: { _csrf: await owner.visitor.csrf(path), ...form } });
      expect((await post(path, { ...MAILBOX_FORM, smtpHost: '127.0.0.1', smtpPort: String(smtp.port) })).status).toBe(200);
      const sentBefore = smtp.received.length;
      const test = await post(`${path}/test`, {});
      expect(test.status).toBe(502);
      expect(await test.text()).toMatch(reason);
      expect(smtp.received).toHaveLength(sentBefore);
    } finally {
      await strict.close();
    }
  });
});
