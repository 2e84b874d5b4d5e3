import * as cheerio from 'cheerio';
import { OutboundError, type SafeFetcher } from '../../outbound/safeFetch.js';
import { domainOf } from '../../shared/urls.js';
import { onDomain } from '../prospects.js';
import { type ContactFinder, type ContactOutcome, type ContactRequest, isUnusableAddress, type MxResolver } from './finder.js';

/** The pages a site names its contact on, in the order read. */
export const CONTACT_PATHS = ['/contact', '/contact-us', '/about'] as const;
const CONTACT_PAGES = new Set<string>(['/contact', '/contact-us']);
/** Pages are read whole up to this size; a larger one is skipped. */
const MAX_PAGE_BYTES = 1024 * 1024;
const TIMEOUT_MS = 8000;

/**
 * Confidence of an address read from the site (there is no provider's figure): a `mailto:` link on a contact page 70,
 * a `mailto:` link on the about page 60, an address only written in a page's text 50. Only addresses on the prospect's
 * domain (or a subdomain) whose domain has mail exchangers are kept.
 */
const CONFIDENCE = { contactMailto: 70, aboutMailto: 60, text: 50 } as const;

const ADDRESS = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*/gi;

interface Sighting {
  email: string;
  confidence: number;
}

function addressesOf(html: string, path: string): Sighting[] {
  const $ = cheerio.load(html);
  const sightings: Sighting[] = [];
  $('a[href^="mailto:" i]').each((_, element) => {
    const href = $(element).attr('href') ?? '';
    let target = href.slice('mailto:'.length).split('?')[0] ?? '';
    try {
      target = decodeURIComponent(target);
    } catch {
      return;
    }
    for (const email of target.split(',')) sightings.push({ email: email.trim().toLowerCase(), confidence: CONTACT_PAGES.has(path) ? CONFIDENCE.contactMailto : CONFIDENCE.aboutMailto });
  });
  $('script, style, noscript').remove();
  for (const match of $('body').text().matchAll(ADDRESS)) sightings.push({ email: match[0].toLowerCase().replace(/\.+$/, ''), confidence: CONFIDENCE.text });
  return sightings;
}

/**
 * The free finder: reads the prospect's contact and about pages (through the outbound guard) for `mailto:` links and
 * written addresses on its domain, then keeps the best one whose domain has MX records.
 */
export class SiteContactFinder implements ContactFinder {
  readonly source = 'site' as const;

  constructor(
    private readonly outbound: Pick<SafeFetcher, 'request'>,
    private readonly resolveMx: MxResolver,
  ) {}

  async find(request: ContactRequest): Promise<ContactOutcome> {
    const origin = this.originOf(request);
    const sightings: Sighting[] = [];
    const read: string[] = [];
    for (const path of CONTACT_PATHS) {
      const html = await this.page(new URL(path, origin), request.domain);
      if (html === undefined) continue;
      read.push(path);
      sightings.push(...addressesOf(html, path));
    }
    if (read.length === 0) return { found: null, note: `none of ${CONTACT_PATHS.join(', ')} could be read on ${origin}` };
    const best = new Map<string, number>();
    for (const { email, confidence } of sightings) {
      const domain = email.split('@')[1];
      if (domain === undefined || !onDomain(domain, request.domain) || isUnusableAddress(email)) continue;
      best.set(email, Math.max(best.get(email) ?? 0, confidence));
    }
    const ranked = [...best].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (ranked.length === 0) return { found: null, note: `no address on ${request.domain} on ${read.join(', ')}` };
    for (const [email, confidence] of ranked) {
      if (await this.receivesMail(email.split('@')[1]!)) return { found: { email, name: null, confidence, source: 'site' } };
    }
    return { found: null, note: `the addresses on ${read.join(', ')} are on a domain without mail exchangers (MX)` };
  }

  /** The prospect page's site when it is on the prospect's domain (it may be www. or a blog subdomain), else the domain. */
  private originOf(request: ContactRequest): string {
    const pageDomain = request.pageUrl === null ? undefined : domainOf(request.pageUrl);
    if (request.pageUrl !== null && pageDomain !== undefined && onDomain(pageDomain, request.domain)) return `https://${new URL(request.pageUrl).host}`;
    return `https://${request.domain}`;
  }

  /** The page's HTML; one redirect is followed when it stays on the prospect's domain (example.com to www.example.com). */
  private async page(url: URL, domain: string, redirectsLeft = 1): Promise<string | undefined> {
    try {
      const response = await this.outbound.request(url, { headers: { accept: 'text/html' }, timeoutMs: TIMEOUT_MS, maxBytes: MAX_PAGE_BYTES });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && typeof location === 'string' && redirectsLeft > 0) {
        if (!URL.canParse(location, url.href)) return undefined;
        const next = new URL(location, url);
        const nextDomain = domainOf(next.href);
        return nextDomain !== undefined && onDomain(nextDomain, domain) ? this.page(next, domain, redirectsLeft - 1) : undefined;
      }
      const type = String(response.headers['content-type'] ?? '');
      if (response.status !== 200 || !/html/i.test(type)) return undefined;
      return response.body.toString('utf8');
    } catch (error) {
      if (error instanceof OutboundError) return undefined;
      throw error;
    }
  }

  private async receivesMail(domain: string): Promise<boolean> {
    try {
      const exchangers = await this.resolveMx(domain);
      // A null MX (RFC 7505: one record, exchange ".") says the domain takes no mail.
      return exchangers.some((mx) => mx.exchange !== '' && mx.exchange !== '.');
    } catch {
      return false;
    }
  }
}
