import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeImap, FakeSmtp, type MailTransport } from './fakes/mailServers.js';
import { configureMailbox, sendFirstEmail } from './support.js';

/**
 * Outreach mail as it runs in production: MAIL_ALLOW_INSECURE unset, so SMTP and IMAP must be encrypted, by STARTTLS on
 * a plain port or TLS from the first byte, and the servers' certificates must verify (the test CA, for 127.0.0.1).
 */
let t: TestService;
const smtp = new Map<MailTransport, FakeSmtp>();
const imap = new Map<MailTransport, FakeImap>();
const TRANSPORTS: MailTransport[] = ['plain', 'starttls', 'tls'];

beforeAll(async () => {
  for (const transport of TRANSPORTS) {
    smtp.set(transport, await FakeSmtp.start(undefined, undefined, transport));
    imap.set(transport, await FakeImap.start(undefined, undefined, transport));
  }
  t = await TestService.start({ env: { ALLOW_PRIVATE_TARGETS: '1' } });
});

afterAll(async () => {
  await t?.close();
  for (const server of [...smtp.values(), ...imap.values()]) await server.close();
});

/** A workspace whose mailbox sends through the SMTP fake and reads the IMAP fake of the given transports. */
async function workspaceSending(smtpTransport: MailTransport, imapTransport: MailTransport = 'tls'): Promise<TestWorkspace> {
  const ws = await t.workspace();
  await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId, {
    smtpHost: '127.0.0.1',
    smtpPort: String(smtp.get(smtpTransport)!.port),
    smtpSecure: String(smtpTransport === 'tls'),
    imapHost: '127.0.0.1',
    imapPort: String(imap.get(imapTransport)!.port),
    imapSecure: String(imapTransport === 'tls'),
    imapPassword: 'imap-secret',
  });
  return ws;
}

const mailbox = (ws: TestWorkspace) => t.db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();

/** The next run of the replies sweep (every five minutes), and the reads it queues. */
async function readReplies(): Promise<void> {
  t.clock.advance(300_000);
  await t.jobs.drain();
}

describe('outreach mail over TLS', () => {
  it('sends over STARTTLS on a plain port and over TLS from the first byte, the session encrypted both times', async () => {
    for (const transport of ['starttls', 'tls'] as const) {
      const { message } = await sendFirstEmail(t, await workspaceSending(transport), `editor@${transport}.example`);
      expect(message, transport).toMatchObject({ state: 'sent', error: null });
      expect(smtp.get(transport)!.received.map((mail) => [mail.to, mail.secure])).toEqual([[[`editor@${transport}.example`], true]]);
    }
  });

  it('sends nothing to a server that offers no STARTTLS: the password would cross in clear', async () => {
    const { message } = await sendFirstEmail(t, await workspaceSending('plain'), 'editor@plain.example');
    expect(message).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^the mail server's TLS failed: Error upgrading connection with STARTTLS: 500 .*; mail goes only encrypted unless MAIL_ALLOW_INSECURE is set$/),
    });
    expect(smtp.get('plain')!.received).toEqual([]);
  });

  it('reads replies over IMAP with TLS from the first byte and with STARTTLS; refuses a server without either', async () => {
    for (const transport of ['tls', 'starttls'] as const) {
      const ws = await workspaceSending('tls', transport);
      const { prospectId, message } = await sendFirstEmail(t, ws, `dana@${transport}-reply.example`);
      await imap.get(transport)!.deliver(
        [
          `From: dana@${transport}-reply.example`,
          'To: ada@acme.example',
          'Subject: Re: A resource for your CRM list',
          `Message-ID: <reply@${transport}-reply.example>`,
          `In-Reply-To: ${message.message_id}`,
          `Date: ${new Date(t.clock.now()).toUTCString()}`,
          '',
          'Happy to have a look.',
        ].join('\r\n'),
      );
      await readReplies();
      expect(await mailbox(ws), transport).toMatchObject({ imap_error: null });
      const received = await t.db.selectFrom('outreach_messages').select('message_id').where('prospect_id', '=', prospectId).where('direction', '=', 'in').execute();
      expect(received, transport).toEqual([{ message_id: `<reply@${transport}-reply.example>` }]);
    }

    const plain = await workspaceSending('tls', 'plain');
    await readReplies();
    expect((await mailbox(plain)).imap_error).toBe(
      "the IMAP server's TLS failed: Server does not support STARTTLS; mail is read only encrypted unless MAIL_ALLOW_INSECURE is set",
    );
  });
});
