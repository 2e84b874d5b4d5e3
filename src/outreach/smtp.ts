import type { MailSettings } from '../config.js';
import { sendOneMessage, smtpFailure } from '../shared/smtp.js';
import { MailConnectionError, MailSetupError, requireTransportSecurity, resolveMailHost } from './mailHosts.js';

export interface SmtpAccount {
  host: string;
  port: number;
  /** TLS from the first byte (465); otherwise STARTTLS. */
  secure: boolean;
  user: string;
  password: string;
}

export interface OutgoingMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  messageId: string;
  inReplyTo: string | null;
  references: string | null;
  /** Where a recipient's mail client sends an unsubscribe request. */
  listUnsubscribe: string;
}

/** The server refused the message for good (5xx): another attempt would be refused too. */
export class SmtpRefused extends Error {
  constructor(
    message: string,
    readonly responseCode: number,
    /** 550 and friends on the recipient: the address does not exist. */
    readonly recipientUnknown: boolean,
  ) {
    super(message);
  }
}

// 550 5.1.1 (user unknown), 551, 553: the recipient itself is refused; 552/554 and policy refusals are not about the address.
const RECIPIENT_UNKNOWN = /\b5\.1\.[0-3]\b|user unknown|no such user|does not exist|unknown recipient|recipient address rejected/i;

function classify(error: unknown): Error {
  const failure = smtpFailure(error);
  const code = failure.responseCode;
  const text = failure.text;
  // No STARTTLS where it is required, or a certificate that does not verify: the settings must change, not the time.
  // Checked before the 5xx answers: a server without STARTTLS answers the command with 500, which refuses no message.
  if (failure.code === 'ETLS') return new MailSetupError(`the mail server's TLS failed: ${failure.message}; mail goes only encrypted unless MAIL_ALLOW_INSECURE is set`);
  if (code !== undefined && code >= 500 && code < 600) {
    const recipientUnknown = failure.code === 'EENVELOPE' && [550, 551, 553].includes(code) && RECIPIENT_UNKNOWN.test(text);
    return new SmtpRefused(`the mail server refused the message: ${text}`, code, recipientUnknown);
  }
  if (failure.code === 'EAUTH' || failure.code === 'ENOAUTH') return new SmtpRefused(`the mail server refused the login: ${text}`, code ?? 535, false);
  return new MailConnectionError(`the mail server could not take the message now: ${text}`);
}

/** Sends one message over the mailbox's SMTP server; resolves once the server accepted it. */
export async function sendOverSmtp(settings: MailSettings, account: SmtpAccount, mail: OutgoingMail): Promise<void> {
  const { address, sni } = await resolveMailHost(settings, account.host);
  const server = {
    host: address,
    port: account.port,
    secure: account.secure,
    // STARTTLS is used whenever offered, and required unless MAIL_ALLOW_INSECURE is set.
    ...requireTransportSecurity(settings),
    tls: sni,
    auth: { user: account.user, pass: account.password },
  };
  try {
    await sendOneMessage(server, {
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      messageId: mail.messageId,
      ...(mail.inReplyTo === null ? {} : { inReplyTo: mail.inReplyTo }),
      ...(mail.references === null ? {} : { references: mail.references }),
      headers: { 'List-Unsubscribe': mail.listUnsubscribe },
    });
  } catch (error) {
    throw classify(error);
  }
}
