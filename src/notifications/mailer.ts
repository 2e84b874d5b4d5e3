/** A message Sightline itself sends to a person: a digest or an alert, never outreach (that goes from the workspace's own mailbox). */
export interface NotificationMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Set by the caller so that a retried send is the same message to the recipient's server (RFC 5322 Message-ID). */
  messageId: string;
  /** RFC 8058 one-click unsubscribe: the https address that turns this kind of mail off for this person. */
  unsubscribeUrl: string;
  /** Images the HTML shows by `cid:` (a chart), so that mail clients that block remote images still show them. */
  inlineImages?: ReadonlyArray<{ cid: string; filename: string; contentType: string; content: Buffer }>;
}

/**
 * How the notifications area sends mail: the operator's SMTP server (src/integrations/smtp). A refusal for good throws
 * NotificationMailRefused; anything worth another attempt (a connection, a 4xx) throws another error.
 */
export interface NotificationMailer {
  /** The From address people see, as the operator set it. */
  readonly from: string;
  send(mail: NotificationMail): Promise<void>;
}

/** The server refused the message for good (5xx, a refused login): another attempt would be refused too. */
export class NotificationMailRefused extends Error {}

/** The operator's mail settings a notifications sender is opened from (the vendor's declaration reads them). */
export type NotificationMailerConstructor<Settings> = (settings: Settings) => NotificationMailer;
