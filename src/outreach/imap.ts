import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import type { MailSettings } from '../config.js';
import { MailConnectionError, MailLoginRefused, MailSetupError, resolveMailHost } from './mailHosts.js';

const CONNECT_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;
/** Messages read per run at most; the next run goes on from the last one read. */
export const MAX_MESSAGES_PER_READ = 200;
/** A first read (or one after the inbox's UIDVALIDITY changed) looks this far back. */
export const FIRST_READ_DAYS = 14;

export interface ImapAccount {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
}

/** Where the last read stopped: UIDs only mean something under the same UIDVALIDITY. */
export interface InboxPosition {
  uidValidity: number;
  lastUid: number;
}

export interface InboxRead {
  position: InboxPosition;
  /** Raw RFC 5322 messages, oldest first. */
  messages: Array<{ uid: number; source: Buffer }>;
}

/**
 * Reads INBOX from where the last read stopped. Without a position under the inbox's current UIDVALIDITY it reads the
 * messages of the last FIRST_READ_DAYS days, so setting a mailbox up never imports an old inbox wholesale.
 */
export async function readInbox(settings: MailSettings, account: ImapAccount, since: InboxPosition | null, now: number): Promise<InboxRead> {
  const { address, sni } = await resolveMailHost(settings, account.host);
  const options: ImapFlowOptions & { doSTARTTLS?: boolean } = {
    host: address,
    ...sni,
    port: account.port,
    secure: account.secure,
    // STARTTLS is required on a plain port (without it the password would travel in clear) unless MAIL_ALLOW_INSECURE.
    ...(account.secure || settings.allowInsecure ? {} : { doSTARTTLS: true }),
    tls: sni,
    auth: { user: account.user, pass: account.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  };
  const client = new ImapFlow(options);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const failure = error as { authenticationFailed?: boolean; tlsFailed?: boolean; message?: string };
    if (failure.authenticationFailed === true) throw new MailLoginRefused(`the IMAP server refused the login for ${account.user}`);
    if (failure.tlsFailed === true) throw new MailSetupError(`the IMAP server's TLS failed: ${failure.message ?? String(error)}; mail is read only encrypted unless MAIL_ALLOW_INSECURE is set`);
    throw new MailConnectionError(`the IMAP server could not be reached: ${failure.message ?? String(error)}`);
  }
  try {
    const lock = await client.getMailboxLock('INBOX', { readOnly: true });
    try {
      const mailbox = client.mailbox;
      if (mailbox === false) throw new MailConnectionError('INBOX could not be opened');
      const uidValidity = Number(mailbox.uidValidity);
      const continuing = since !== null && since.uidValidity === uidValidity;
      const uids = continuing
        ? ((await client.search({ uid: `${since.lastUid + 1}:*` }, { uid: true })) || []).filter((uid) => uid > since.lastUid)
        : (await client.search({ since: new Date(now - FIRST_READ_DAYS * 86_400_000) }, { uid: true })) || [];
      const batch = [...uids].sort((a, b) => a - b).slice(0, MAX_MESSAGES_PER_READ);
      const messages: InboxRead['messages'] = [];
      if (batch.length > 0) {
        for await (const message of client.fetch(batch.join(','), { uid: true, source: true }, { uid: true })) {
          if (message.source !== undefined) messages.push({ uid: message.uid, source: message.source });
        }
      }
      messages.sort((a, b) => a.uid - b.uid);
      const lastUid = Math.max(continuing ? since.lastUid : 0, ...batch);
      return { position: { uidValidity, lastUid }, messages };
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}
