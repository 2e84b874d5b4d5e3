import { NotificationMailRefused, type NotificationMail, type NotificationMailer } from '../../notifications/mailer.js';
import { sendOneMessage, smtpFailure } from '../../shared/smtp.js';

export interface OperatorSmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (465, or smtps://); otherwise STARTTLS, required unless `allowInsecure`. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
  /** MAIL_ALLOW_INSECURE=1: the server may be spoken to without TLS (a local test server). */
  allowInsecure: boolean;
}

/**
 * The operator's own SMTP server (a relay, or a provider such as Postmark, SES or Mailgun over SMTP). It is the
 * operator's choice, not a customer's, so a host on the private network (a local relay) is allowed.
 */
export class OperatorSmtpMailer implements NotificationMailer {
  readonly from: string;

  constructor(private readonly settings: OperatorSmtpSettings) {
    this.from = settings.from;
  }

  async send(mail: NotificationMail): Promise<void> {
    const { settings } = this;
    const server = {
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: !settings.secure && !settings.allowInsecure,
      ...(settings.user === undefined ? {} : { auth: { user: settings.user, pass: settings.password ?? '' } }),
    };
    try {
      await sendOneMessage(server, {
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        // RFC 8058: one https address, and the one-click POST mail clients send to it; RFC 3834: no auto-replies.
        headers: {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Auto-Submitted': 'auto-generated',
        },
        attachments: (mail.inlineImages ?? []).map((image) => ({ cid: image.cid, filename: image.filename, contentType: image.contentType, content: image.content })),
      });
    } catch (error) {
      const failure = smtpFailure(error);
      const refusedForGood = (failure.responseCode !== undefined && failure.responseCode >= 500) || failure.code === 'EAUTH' || failure.code === 'ENOAUTH';
      throw refusedForGood ? new NotificationMailRefused(`the mail server refused the message: ${failure.text}`) : new Error(`the mail server could not take the message now: ${failure.text}`);
    }
  }
}
