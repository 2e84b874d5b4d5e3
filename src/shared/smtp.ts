import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

const CONNECT_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;

/** What a failed send said, read from nodemailer's error: its code (EAUTH, ETLS, EENVELOPE…), the server's reply code and text. */
export interface SmtpFailure {
  code: string | undefined;
  responseCode: number | undefined;
  /** The server's answer, or the error's message when there was none; at most 500 characters. */
  text: string;
  /** The error's own message (for a TLS failure, which has no server answer worth showing). */
  message: string;
}

/**
 * Connects, hands over one message and closes. Mail leaves Sightline rarely and from many workers, so no pool is kept
 * open between sends; the timeouts bound a server that accepts the connection and then stalls.
 */
export async function sendOneMessage(server: SMTPTransport.Options, message: Mail.Options): Promise<void> {
  const transport = nodemailer.createTransport({ ...server, connectionTimeout: CONNECT_TIMEOUT_MS, greetingTimeout: CONNECT_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS });
  try {
    await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

export function smtpFailure(error: unknown): SmtpFailure {
  const failure = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const message = (failure.message ?? String(error)).slice(0, 500);
  return { code: failure.code, responseCode: failure.responseCode, text: (failure.response ?? message).slice(0, 500), message };
}
