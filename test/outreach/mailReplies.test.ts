import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stopRequest } from '../../src/outreach/replies.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeImap, FakeSmtp } from './fakes/mailServers.js';
import { configureMailbox, insertDraft, insertProspect, sendFirstEmail } from './support.js';

let t: TestService;
let smtp: FakeSmtp;
let imap: FakeImap;
let ws: TestWorkspace;

const POLL_MS = 300_000;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  imap = await FakeImap.start();
  t = await TestService.start({ env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1' } });
  ws = await t.workspace();
  await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId, {
    smtpHost: '127.0.0.1',
    smtpPort: String(smtp.port),
    imapHost: '127.0.0.1',
    imapPort: String(imap.port),
    imapPassword: 'imap-secret',
  });
});

afterAll(async () => {
  await t?.close();
  await imap?.close();
  await smtp?.close();
});

/** The next run of the replies sweep, and the reads it queues. */
async function readMailbox(): Promise<void> {
  t.clock.advance(POLL_MS);
  await t.jobs.drain();
}

const messages = (prospectId: string) => t.db.selectFrom('outreach_messages').selectAll().where('prospect_id', '=', prospectId).orderBy('created_at').orderBy('id').execute();
const stage = async (prospectId: string) => (await t.db.selectFrom('outreach_prospects').select('stage').where('id', '=', prospectId).executeTakeFirstOrThrow()).stage;
const suppression = (email: string) => t.db.selectFrom('outreach_suppressions').selectAll().where('workspace_id', '=', ws.workspaceId).where('email', '=', email).executeTakeFirst();

/** A prospect written to: the draft queued and sent over SMTP; its Message-ID. */
async function contacted(contactEmail: string): Promise<{ prospectId: string; sentId: string }> {
  const { prospectId, message } = await sendFirstEmail(t, ws, contactEmail);
  expect(message.state).toBe('sent');
  return { prospectId, sentId: message.message_id! };
}

const mail = (headers: Record<string, string>, body: string) =>
  `${Object.entries({ Date: new Date(t.clock.now()).toUTCString(), ...headers })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n${body.replace(/\n/g, '\r\n')}\r\n`;

describe('replies read over IMAP', () => {
  beforeEach(() => {
    smtp.received.length = 0;
  });

  it('attaches a reply to its thread by In-Reply-To, stores it as received and moves the prospect to replied; reads each message once', async () => {
    const { prospectId, sentId } = await contacted('dana@clinicblog.example');
    expect(await stage(prospectId)).toBe('contacted');
    await imap.deliver(
      mail(
        { From: 'Dana <Dana@ClinicBlog.example>', To: 'ada@acme.example', Subject: 'Re: A resource for your CRM list', 'Message-ID': '<reply-1@clinicblog.example>', 'In-Reply-To': sentId, References: sentId },
        'Happy to have a look. Which page?\n\nOn Monday Ada wrote:\n> Please unsubscribe me is not what I said',
      ),
    );
    await imap.deliver(mail({ From: 'newsletter@shop.example', To: 'ada@acme.example', Subject: 'Sale!', 'Message-ID': '<sale@shop.example>' }, 'Buy now.'));
    await readMailbox();
    const thread = await messages(prospectId);
    expect(thread.map((m) => [m.direction, m.state])).toEqual([
      ['out', 'sent'],
      ['in', 'received'],
    ]);
    expect(thread[1]).toMatchObject({ from_address: 'dana@clinicblog.example', message_id: '<reply-1@clinicblog.example>', in_reply_to: sentId });
    expect(thread[1]!.body_text).toContain('Which page?');
    expect(await stage(prospectId)).toBe('replied');
    // Mail that belongs to no outreach thread stays out, and quoted words do not count as a stop request.
    expect(await t.db.selectFrom('outreach_messages').select('id').where('message_id', '=', '<sale@shop.example>').execute()).toEqual([]);
    expect(await suppression('dana@clinicblog.example')).toBeUndefined();
    const box = await t.db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
    expect(box).toMatchObject({ imap_error: null });
    expect(Number(box.imap_last_uid)).toBe(2);

    await readMailbox();
    expect(await messages(prospectId)).toHaveLength(2);
    // The reply is one outreach.replied change, read twice or not; the unrelated mail is none.
    const replied = await t.db.selectFrom('changes').selectAll().where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'outreach.replied').execute();
    expect(replied.map((c) => c.title)).toEqual([expect.stringMatching(/^dana@clinicblog\.example \(blog-\w+\.example\) replied to outreach: "Re: A resource for your CRM list"$/)]);
    expect(JSON.parse(replied[0]!.details)).toMatchObject({ prospectId, from: 'dana@clinicblog.example', excerpt: 'Happy to have a look. Which page?', stopRequested: false });
  });

  it('a bounce (multipart/report from MAILER-DAEMON) suppresses the address and marks the send', async () => {
    const { prospectId, sentId } = await contacted('nobody@gone.example');
    const boundary = 'dsn-boundary';
    await imap.deliver(
      mail(
        {
          From: 'Mail Delivery System <MAILER-DAEMON@mx.acme.example>',
          To: 'ada@acme.example',
          Subject: 'Undelivered Mail Returned to Sender',
          'Message-ID': '<dsn-1@mx.acme.example>',
          'MIME-Version': '1.0',
          'Content-Type': `multipart/report; report-type=delivery-status; boundary="${boundary}"`,
        },
        [
          `--${boundary}`,
          'Content-Type: text/plain',
          '',
          'Your message could not be delivered.',
          `--${boundary}`,
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; mx.acme.example',
          '',
          'Final-Recipient: rfc822; nobody@gone.example',
          'Action: failed',
          'Status: 5.1.1',
          `--${boundary}`,
          'Content-Type: text/rfc822-headers',
          '',
          `Message-ID: ${sentId}`,
          'Subject: A resource for your CRM list',
          `--${boundary}--`,
        ].join('\n'),
      ),
    );
    await readMailbox();
    expect(await suppression('nobody@gone.example')).toMatchObject({ reason: 'bounce' });
    const thread = await messages(prospectId);
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ state: 'sent', error: 'bounced (status 5.1.1)' });
    expect(await stage(prospectId)).toBe('contacted');
    const again = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'nobody@gone.example', inReplyTo: sentId });
    const refused = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: again });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toMatch(/suppression list \(bounce\)/);
  });

  it('a reply asking to stop suppresses the sender (asked), found by sender when it names no thread', async () => {
    const { prospectId } = await contacted('max@recipes.example');
    await imap.deliver(mail({ From: 'max@recipes.example', To: 'ada@acme.example', Subject: 'your email', 'Message-ID': '<stop-1@recipes.example>' }, 'Please remove me from your list.'));
    await readMailbox();
    expect(await suppression('max@recipes.example')).toMatchObject({ reason: 'asked' });
    expect((await messages(prospectId)).map((m) => m.direction)).toEqual(['out', 'in']);
    expect(await stage(prospectId)).toBe('replied');
  });

  it('tells stop requests from replies', () => {
    expect(stopRequest('unsubscribe', '')).toBe('opt_out');
    expect(stopRequest('Re: hi', 'STOP')).toBe('asked');
    expect(stopRequest('Re: hi', 'Please stop emailing me.')).toBe('asked');
    expect(stopRequest('Re: hi', "Sure, I can't stop reading your guide!")).toBeUndefined();
    expect(stopRequest('Re: hi', 'Thanks!\n\n> reply "unsubscribe" and I will not write')).toBeUndefined();
  });

  it('leaves Outlook, Gmail-mobile, French and German quotes out of the stop check, and still hears a stop above them', () => {
    const ours = ['Hello Dana,', '', 'Our guide could help your readers.', '', '--', 'If you would rather not hear from me again, reply "unsubscribe" and I will not write to you again.'];
    const outlook = ['Sounds interesting, send me the link.', '', '________________________________', 'From: Ada from Acme <ada@acme.example>', 'Sent: Monday, November 23, 2026 10:00 AM', 'To: Dana <dana@blog.example>', 'Subject: A resource for your CRM list', '', ...ours];
    expect(stopRequest('RE: A resource for your CRM list', outlook.join('\n'))).toBeUndefined();
    const headersOnly = ['Yes please, which page?', '', 'From: Ada from Acme <ada@acme.example>', 'Date: Monday, 23 November 2026 at 10:00', 'To: Dana <dana@blog.example>', '', ...ours];
    expect(stopRequest('Re: hi', headersOnly.join('\n'))).toBeUndefined();
    const wrapped = ['Great, thanks!', '', 'On Mon, 23 Nov 2026 at 10:00, Ada from Acme <ada@acme.example>', 'wrote:', '', ...ours];
    expect(stopRequest('Re: hi', wrapped.join('\n'))).toBeUndefined();
    expect(stopRequest('Re: hi', ['Merci, avec plaisir.', '', 'Le lun. 23 nov. 2026 à 10:00, Ada <ada@acme.example> a écrit :', '', ...ours].join('\n'))).toBeUndefined();
    expect(stopRequest('Re: hi', ['Gern, danke.', '', 'Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Ada <ada@acme.example>:', '', ...ours].join('\n'))).toBeUndefined();
    expect(stopRequest('RE: A resource for your CRM list', ['unsubscribe', '', ...outlook.slice(2)].join('\n'))).toBe('asked');
    expect(stopRequest('Re: hi', ['Please take me off your list.', '', ...headersOnly.slice(2)].join('\n'))).toBe('asked');
    // A From: line in their own words, with no header block below it, is not a quote.
    expect(stopRequest('Re: hi', 'From: the editor desk. Please stop emailing us.')).toBe('asked');
  });

  it('mail from a prospect\'s contact address that was never written to is not filed as a reply', async () => {
    const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { contactEmail: 'quiet@never.example' });
    await imap.deliver(mail({ From: 'quiet@never.example', To: 'ada@acme.example', Subject: 'Invoice 42', 'Message-ID': '<invoice-42@never.example>' }, 'Your invoice is attached. Please stop by anytime.'));
    await readMailbox();
    expect(await messages(prospectId)).toEqual([]);
    expect(await stage(prospectId)).toBe('identified');
    expect(await suppression('quiet@never.example')).toBeUndefined();
  });

  it('one answer per message of theirs inside the quiet period: a second answer waits, their next message allows one more', async () => {
    const { prospectId, sentId } = await contacted('ask@twice.example');
    const reply = (id: string, inReplyTo: string) =>
      mail({ From: 'ask@twice.example', To: 'ada@acme.example', Subject: 'Re: A resource for your CRM list', 'Message-ID': id, 'In-Reply-To': inReplyTo, References: inReplyTo }, 'Which page?');
    const queue = (messageId: string, confirm = true) => t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId, ...(confirm ? { confirm } : {}) });
    await imap.deliver(reply('<ask-1@twice.example>', sentId));
    await readMailbox();
    const answer = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'ask@twice.example', inReplyTo: '<ask-1@twice.example>' });
    expect((await queue(answer)).status).toBe(200);
    await t.jobs.drain();
    const sentAnswer = (await messages(prospectId)).find((m) => m.id === answer)!;
    expect(sentAnswer.state).toBe('sent');
    const again = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'ask@twice.example', inReplyTo: '<ask-1@twice.example>' });
    const refused = await queue(again, false);
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain(`may go from ${new Date(Number(sentAnswer.sent_at) + 14 * 86_400_000).toISOString()}`);
    await imap.deliver(reply('<ask-2@twice.example>', String(sentAnswer.message_id)));
    await readMailbox();
    const next = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId, { to: 'ask@twice.example', inReplyTo: '<ask-2@twice.example>' });
    expect((await queue(next)).status).toBe(200);
    await t.jobs.drain();
    expect(smtp.received.map((m) => m.to)).toEqual([['ask@twice.example'], ['ask@twice.example'], ['ask@twice.example']]);
  });
});
