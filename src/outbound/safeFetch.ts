import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';

/** How outbound requests to addresses that others chose (client metadata documents, later customer URLs) behave. */
export interface OutboundOptions {
  /** Allows private, loopback and link-local targets: for deployments inside a private network, and for tests. */
  allowPrivateAddresses: boolean;
  /** Extra trusted CA certificates (PEM), e.g. a private network's own CA. */
  ca?: string;
}

const TIMEOUT_MS = 5000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export class OutboundError extends Error {}

function isPublic(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * Refuses private addresses at connect time, after DNS resolution, so a name that rebinds to 127.0.0.1 between a
 * check and the request still cannot reach inside.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !allowPrivate && !isPublic(a.address));
      if (refused !== undefined) return callback(new OutboundError(`${hostname} resolves to a private address (${refused.address})`), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** GET of a JSON document on someone else's server: https only, no redirects, no private targets, small and quick. */
export class SafeFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: OutboundOptions) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(options.allowPrivateAddresses), timeout: TIMEOUT_MS, ...(options.ca ? { ca: options.ca } : {}) },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  }

  async json(url: URL): Promise<unknown> {
    if (url.protocol !== 'https:') throw new OutboundError(`${url.href}: only https URLs are fetched`);
    if (url.username !== '' || url.password !== '') throw new OutboundError(`${url.href}: URLs with credentials are not fetched`);
    // A literal IP never goes through the lookup: check it here (the URL parser already normalised forms like 0x7f.1).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !this.options.allowPrivateAddresses && !isPublic(host)) throw new OutboundError(`${url.href}: private address`);
    const response = await request(url, { dispatcher: this.agent, method: 'GET', headers: { accept: 'application/json' } });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new OutboundError(`${url.href} answered ${response.statusCode}`);
    }
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_RESPONSE_BYTES) {
        await response.body.dump();
        throw new OutboundError(`${url.href}: the document is larger than ${MAX_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new OutboundError(`${url.href}: not JSON`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
