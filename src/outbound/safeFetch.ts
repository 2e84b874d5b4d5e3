import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress, notPublicMessage } from './publicAddress.js';

/** How outbound requests to addresses that others chose (client metadata documents, customer endpoints and pages) behave. */
export interface OutboundOptions {
  /** Allows private, loopback and link-local targets: for deployments inside a private network, and for tests. */
  allowPrivateAddresses: boolean;
}

const TIMEOUT_MS = 5000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export class OutboundError extends Error {}
/** The target did not answer in time. */
export class OutboundTimeout extends OutboundError {}
/** The address may not be requested (scheme, credentials, a private target): asking again changes nothing. */
export class OutboundRefused extends OutboundError {}
/** The answer outgrew the size cap. */
export class OutboundTooLarge extends OutboundError {}

/**
 * Refuses private addresses at connect time, after DNS resolution, so a name that rebinds to 127.0.0.1 between a
 * check and the request still cannot reach inside.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) return callback(new OutboundRefused(notPublicMessage(hostname, 'resolved')), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Text, or bytes for an upload (a CMS's media). */
  body?: string | Buffer;
  /** The whole exchange, connect to last byte. */
  timeoutMs?: number;
  /** Larger answers are refused (read no further). */
  maxBytes?: number;
  /**
   * Also requests http URLs (the address checks still apply). Only for reading public pages as they are published
   * (backlink verification: many small sites serve http only); anything sent or trusted stays on https.
   */
  allowHttp?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Requests to addresses that others chose: https only (unless a caller reading public pages allows http), no redirects,
 * no private targets, bounded in time and size.
 */
export class SafeFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: OutboundOptions) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(options.allowPrivateAddresses), timeout: TIMEOUT_MS },
    });
  }

  /** Refuses what must never be requested, before any connection: http (unless allowed), credentials in the URL, literal private IPs. */
  check(url: URL, options: { allowHttp?: boolean } = {}): void {
    const schemes = options.allowHttp === true ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol)) throw new OutboundRefused(`${shownUrl(url)}: only ${options.allowHttp === true ? 'http(s)' : 'https'} URLs are requested`);
    if (url.username !== '' || url.password !== '') throw new OutboundRefused(`${shownUrl(url)}: URLs with credentials are not requested`);
    // A literal IP never goes through the lookup: check it here (the URL parser already normalised forms like 0x7f.1).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !this.options.allowPrivateAddresses && !isPublicAddress(host)) throw new OutboundRefused(notPublicMessage(shownUrl(url), 'literal'));
  }

  /** One request; a timeout throws OutboundTimeout, anything else that stops it throws OutboundError. Redirects are answers, never followed. */
  async request(url: URL, init: OutboundRequest = {}): Promise<OutboundResponse> {
    this.check(url, { allowHttp: init.allowHttp });
    const timeoutMs = init.timeoutMs ?? TIMEOUT_MS;
    const maxBytes = init.maxBytes ?? MAX_RESPONSE_BYTES;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        ...(init.body === undefined ? {} : { body: init.body }),
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw new OutboundTooLarge(`${shownUrl(url)}: the answer is larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      if (signal.aborted || (error instanceof Error && /timeout/i.test(error.name + error.message))) {
        throw new OutboundTimeout(`${shownUrl(url)} did not answer within ${timeoutMs / 1000} seconds`);
      }
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new OutboundError(`${shownUrl(url)}: ${reason}`, { cause: error });
    }
  }

  /** GET of a JSON document, answered 200. */
  async json(url: URL): Promise<unknown> {
    const response = await this.request(url, { headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new OutboundError(`${shownUrl(url)} answered ${response.status}`);
    try {
      return JSON.parse(response.body.toString('utf8')) as unknown;
    } catch {
      throw new OutboundError(`${shownUrl(url)}: not JSON`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * A requested URL as messages show it: without credentials and without its query, which is where providers take their
 * keys (Hunter's `api_key`) and where customers put their webhook tokens. Messages reach logs, job errors and answers.
 */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  shown.hash = '';
  return `${shown.href}${url.search === '' ? '' : '?…'}`;
}
