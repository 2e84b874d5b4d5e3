import { getDomain } from 'tldts';

/** Longer returned URLs are not taken as the article's address. */
export const MAX_RETURNED_URL_CHARS = 2048;

/**
 * The registrable domain (`api.acme.com` and `acme.com` are both `acme.com`; private suffixes such as github.io count
 * as public ones, so two GitHub Pages sites are two sites); an IP address or a bare name is its own site.
 */
function siteOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname.toLowerCase();
}

export function sameSite(a: URL, b: URL): boolean {
  return siteOf(a.hostname) === siteOf(b.hostname);
}

/** The URL candidate in one of the three answer forms: `{ ok, url }`, `{ article: { url } }`, `{ data: { url } }`. */
function candidate(answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  const record = answer as Record<string, unknown>;
  if (record.url !== undefined) return record.url;
  for (const wrapper of ['article', 'data'] as const) {
    const inner = record[wrapper];
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && (inner as Record<string, unknown>).url !== undefined) {
      return (inner as Record<string, unknown>).url;
    }
  }
  return undefined;
}

export interface ReceiverAddress {
  /** The article's address, when the answer carried a valid one on the endpoint's site. */
  url: string | null;
  /** Why a URL in the answer was not taken, for the destination's record. */
  note: string | null;
}

/** Reads the article's address out of a 2xx answer. The answer is untrusted: anything unexpected means "no address". */
export function receiverAddress(body: Buffer, endpointUrl: string): ReceiverAddress {
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    return { url: null, note: body.length === 0 ? null : 'the answer was not JSON' };
  }
  const value = candidate(answer);
  if (value === undefined || value === null || value === '') return { url: null, note: null };
  if (typeof value !== 'string') return { url: null, note: 'the returned url was not a string' };
  const address = usableAddress(value);
  if (!(address instanceof URL)) return { url: null, note: `the returned URL ${address}` };
  if (!sameSite(address, new URL(endpointUrl))) return { url: null, note: `the returned URL ${value} is not on the endpoint's site, so it was ignored` };
  return { url: address.href, note: null };
}

/**
 * An article's address as someone else gave it (a receiver's answer, a CMS's post), parsed, or why it is not taken:
 * it must be absolute http(s), without credentials, and not absurdly long. The reason reads after "the returned URL".
 */
export function usableAddress(value: string): URL | string {
  if (value.length > MAX_RETURNED_URL_CHARS) return `is longer than ${MAX_RETURNED_URL_CHARS} characters`;
  if (!URL.canParse(value)) return `${value} is not absolute`;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${value} is not http(s)`;
  if (url.username !== '' || url.password !== '') return 'contains credentials';
  return url;
}
