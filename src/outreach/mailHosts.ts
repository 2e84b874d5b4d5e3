import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { MailSettings } from '../config.js';
import { isPublicAddress, notPublicMessage } from '../outbound/publicAddress.js';

/** A mail server could not be reached, or refused the connection for a reason worth trying again later. */
export class MailConnectionError extends Error {}

/** The mailbox settings cannot work as they are (a private host, a refused login): trying again changes nothing. */
export class MailSetupError extends Error {}

/** The mail server refused the mailbox's login: only new credentials help. */
export class MailLoginRefused extends MailSetupError {}

export interface ResolvedMailHost {
  /** The address connected to: resolved once here, so a name that rebinds later cannot redirect the connection. */
  address: string;
  /**
   * The name the server's certificate must carry, sent as SNI. None for an IP literal: SNI may not carry an address
   * (RFC 6066), and the mail clients then check the certificate against the address connected to.
   */
  sni: { servername: string } | Record<string, never>;
}

/**
 * Mail hosts are chosen by workspace owners, so like every address others choose they may not point inside the
 * network unless ALLOW_PRIVATE_TARGETS is set. The connection then goes to the checked address.
 */
export async function resolveMailHost(settings: MailSettings, host: string): Promise<ResolvedMailHost> {
  const literal = isIP(host) !== 0;
  const addresses = literal ? [host] : await lookup(host, { all: true }).then(
    (found) => found.map((entry) => entry.address),
    (error: unknown) => {
      throw new MailConnectionError(`${host} does not resolve: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  const address = addresses[0];
  if (address === undefined) throw new MailConnectionError(`${host} does not resolve`);
  if (!settings.allowPrivateHosts && !addresses.every(isPublicAddress)) throw new MailSetupError(`${notPublicMessage(host, literal ? 'literal' : 'resolved')}; mail servers must be public`);
  return { address, sni: literal ? {} : { servername: host } };
}

/** Refuses plain-text connections unless MAIL_ALLOW_INSECURE is set: the mailbox password would cross the network in clear. */
export function requireTransportSecurity(settings: MailSettings): { requireTLS: boolean } {
  return { requireTLS: !settings.allowInsecure };
}
