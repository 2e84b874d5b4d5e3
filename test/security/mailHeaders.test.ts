import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeSmtp, type ReceivedMail } from '../outreach/fakes/mailServers.js';
import { configureMailbox, insertDraft, insertProspect, insertReceived, MAILBOX_FORM } from '../outreach/support.js';
import type { Visitor } from '../support/visitor.js';

const EVE = 'eve@evil.example';
/** What an attacker appends to a header's value to add a recipient of their own. */
const INJECTED = `\r\nBcc: ${EVE}`;

let t: TestService;
let smtp: FakeSmtp;
let owner: TestWorkspace & { visitor: Visitor };

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  // The fake mail server is plain text on loopback.
  t = await TestService.start({ env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  smtp.received.length = 0;
  owner = await t.signedInOwner();
});

const mailbox = (overrides: Record<string, string> = {}) =>
  configureMailbox(t.db, t.clock, t.service.services.credentials, owner.workspaceId, { smtpHost: '127.0.0.1', smtpPort: String(smtp.port), ...overrides });

/** The contact address of a prospect: where its first email goes. */
async function contactOf(prospectId: string): Promise<string> {
  return (await t.db.selectFrom('outreach_prospects').select('contact_email').where('id', '=', prospectId).executeTakeFirstOrThrow()).contact_email!;
}

/** Queues the draft as an agent would (confirmed) and runs the send job: the mail the server received, if any. */
async function send(messageId: string): Promise<ReceivedMail | undefined> {
  const queued = await t.rest(owner.key, 'POST', '/api/v1/outreach/queue', { messageId, confirm: true });
  expect(queued.status, JSON.stringify(queued.body)).toBe(200);
  await t.jobs.drain();
  return smtp.received[0];
}

/** The message went to its one recipient, with no header line the attacker added and their address nowhere as a recipient. */
function expectNeutralised(mail: ReceivedMail | undefined, recipient: string): void {
  expect(mail, 'the message was sent').toBeDefined();
  expect(mail!.to).toEqual([recipient]);
  const headers = mail!.raw.split('\r\n\r\n')[0]!;
  expect(headers).not.toMatch(/^bcc:/im);
  const addressed = headers.split(/\r\n(?![ \t])/).filter((line) => /^(to|cc|bcc|from|reply-to):/i.test(line));
  expect(addressed.filter((line) => line.includes(EVE) && !/^from:/i.test(line))).toEqual([]);
}

describe('mail header injection in outreach email', () => {
  it('a subject edited to carry a line break and a Bcc header adds no recipient', async () => {
    await mailbox();
    const prospectId = await insertProspect(t.db, t.clock, owner.workspaceId);
    const messageId = await insertDraft(t.db, t.clock, owner.workspaceId, prospectId);
    const edited = await t.rest(owner.key, 'POST', '/api/v1/outreach/draft', { messageId, subject: `A resource${INJECTED}` });
    expect(edited.status).toBe(200);
    expectNeutralised(await send(messageId), await contactOf(prospectId));
  });

  it('a subject the writer model answers with a line break and a Bcc header adds no recipient', async () => {
    await mailbox();
    const prospectId = await insertProspect(t.db, t.clock, owner.workspaceId);
    t.writer.answer('outreach_email', () => ({ subject: `Your CRM list${INJECTED}`, body: 'Hello Dana,\n\nA suggestion for your list.' }));
    const drafted = await t.rest(owner.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(drafted.status).toBe(200);
    expectNeutralised(await send(String((drafted.body.data as { messageId: string }).messageId)), await contactOf(prospectId));
  });

  it("a sender name saved in the mailbox form with a line break and a Bcc header adds no recipient", async () => {
    const page = `/w/${owner.workspaceId}/outreach/mailbox`;
    const form = { ...MAILBOX_FORM, fromName: `Ada${INJECTED}`, smtpHost: '127.0.0.1', smtpPort: String(smtp.port), _csrf: await owner.visitor.csrf(page) };
    const saved = await owner.visitor.request(page, { method: 'POST', form });
    expect(saved.status).toBe(200);
    const prospectId = await insertProspect(t.db, t.clock, owner.workspaceId);
    expectNeutralised(await send(await insertDraft(t.db, t.clock, owner.workspaceId, prospectId)), await contactOf(prospectId));
  });

  it('a contact address with a line break and a Bcc header is refused when the prospect is added', async () => {
    const answer = await t.rest(owner.key, 'POST', '/api/v1/outreach/prospects', { prospects: [{ domain: 'clinicblog.example', contactEmail: `dana@clinicblog.example${INJECTED}` }] });
    expect(answer.status).toBe(400);
    expect(await t.db.selectFrom('outreach_prospects').select('id').where('workspace_id', '=', owner.workspaceId).execute()).toEqual([]);
  });

  it("a reply to a message whose Message-ID carries a line break and a Bcc header (their mail server wrote it) adds no recipient", async () => {
    await mailbox();
    const prospectId = await insertProspect(t.db, t.clock, owner.workspaceId, { stage: 'replied' });
    await insertReceived(t.db, t.clock, owner.workspaceId, prospectId, { from: 'dana@clinicblog.example', messageId: `<their-id@clinicblog.example>${INJECTED}` });
    t.writer.answer('outreach_email', () => ({ subject: 'Re: A resource for your CRM list', body: 'Hello Dana,\n\nThis one.' }));
    const drafted = await t.rest(owner.key, 'POST', '/api/v1/outreach/draft-reply', { prospectId });
    expect(drafted.status).toBe(200);
    expectNeutralised(await send(String((drafted.body.data as { messageId: string }).messageId)), 'dana@clinicblog.example');
  });
});
