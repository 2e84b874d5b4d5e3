import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import hoodiecrow from 'hoodiecrow-imap';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { TEST_CERTIFICATE } from '../../support/localServers.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The session was encrypted (TLS from the first byte, or after STARTTLS). */
  secure: boolean;
}

/**
 * How a fake mail server talks: plain text only (the default), plain with STARTTLS offered, or TLS from the first byte
 * (ports 465 and 993). TLS uses the test certificate for localhost and 127.0.0.1.
 */
export type MailTransport = 'plain' | 'starttls' | 'tls';

/**
 * A local SMTP server (smtp-server) playing the workspace's mail provider on 127.0.0.1, one account, and recipients
 * it refuses by their local part: `unknown@` is 550 5.1.1, `busy@` is 451 (try later).
 */
export class FakeSmtp {
  readonly received: ReceivedMail[] = [];
  /** While set, every recipient gets this temporary refusal. */
  temporaryFailure: string | undefined;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(user = 'ada@acme.example', password = 'smtp-secret', transport: MailTransport = 'plain'): Promise<FakeSmtp> {
    let fake: FakeSmtp | undefined;
    const server = new SMTPServer({
      ...(transport === 'plain' ? { secure: false, disabledCommands: ['STARTTLS'] } : { secure: transport === 'tls', ...TEST_CERTIFICATE }),
      allowInsecureAuth: transport === 'plain',
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === user && auth.password === password) return callback(null, { user });
        return callback(new Error('535 5.7.8 authentication failed'));
      },
      onRcptTo(address: SMTPServerAddress, _session, callback) {
        if (fake!.temporaryFailure !== undefined) return callback(Object.assign(new Error(fake!.temporaryFailure), { responseCode: 451 }));
        if (address.address.startsWith('unknown@')) return callback(Object.assign(new Error('5.1.1 <' + address.address + '>: user unknown'), { responseCode: 550 }));
        return callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          fake!.received.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            secure: session.secure,
          });
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    fake = new FakeSmtp(server, (server.server.address() as AddressInfo).port);
    return fake;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A local IMAP server (hoodiecrow) holding the mailbox's INBOX; tests deliver messages into it with APPEND. */
export class FakeImap {
  private constructor(
    private readonly server: { close(callback?: () => void): void },
    readonly port: number,
    private readonly user: string,
    private readonly password: string,
    private readonly transport: MailTransport,
  ) {}

  static async start(user = 'ada@acme.example', password = 'imap-secret', transport: MailTransport = 'plain'): Promise<FakeImap> {
    const server = hoodiecrow({
      plugins: transport === 'starttls' ? ['UIDPLUS', 'STARTTLS'] : ['UIDPLUS'],
      secureConnection: transport === 'tls',
      ...(transport === 'plain' ? {} : { credentials: TEST_CERTIFICATE }),
      storage: { INBOX: { messages: [] } },
      users: { [user]: { password } },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return new FakeImap(server, (server.server.address() as AddressInfo).port, user, password, transport);
  }

  /** Puts a raw message into INBOX, as the mail provider does when mail arrives. */
  async deliver(raw: string): Promise<void> {
    const options: ImapFlowOptions & { doSTARTTLS?: boolean } = {
      host: '127.0.0.1',
      port: this.port,
      secure: this.transport === 'tls',
      ...(this.transport === 'starttls' ? { doSTARTTLS: true } : {}),
      auth: { user: this.user, pass: this.password },
      logger: false,
    };
    const client = new ImapFlow(options);
    await client.connect();
    await client.append('INBOX', raw, [], new Date());
    await client.logout();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
