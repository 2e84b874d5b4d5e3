import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import { type NewSitePage, pageUrl, siteOf, storeSitePages, workspaceWebsite } from './sitePages.js';

/** Bounds of one scan: sitemaps read (an index and the sitemaps it names) and pages taken. */
export const MAX_SITEMAPS = 10;
export const MAX_DETECTED_PAGES = 500;
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

// Links to files are not pages worth linking to.
const ASSET = /\.(?:css|js|mjs|json|xml|gz|zip|pdf|png|jpe?g|gif|webp|svg|ico|avif|mp4|mp3|woff2?|ttf)$/i;

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, isArray: (name) => name === 'url' || name === 'sitemap' });

interface Fetched {
  kind: 'xml' | 'html';
  text: string;
}

class ScanRefused extends Error {}

const STATUS_WORDS: Record<number, string> = { 401: 'not allowed', 403: 'forbidden', 404: 'not found', 410: 'gone' };

async function fetchDocument(outbound: SafeFetcher, url: URL): Promise<Fetched> {
  let response;
  try {
    response = await outbound.request(url, {
      headers: { accept: 'application/xml, text/xml, text/html;q=0.9', 'user-agent': 'Sightline-SiteScan/1.0' },
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_DOCUMENT_BYTES,
    });
  } catch (error) {
    if (error instanceof OutboundError) throw new ScanRefused(error.message);
    throw error;
  }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.location;
    throw new ScanRefused(`${url.href} answered ${response.status} (a redirect, not followed${typeof location === 'string' ? `: scan ${location} instead` : ''})`);
  }
  if (response.status !== 200) throw new ScanRefused(`${url.href} answered ${response.status} (${STATUS_WORDS[response.status] ?? 'not 200'})`);
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  const text = response.body.toString('utf8');
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (type.includes('html') || start.startsWith('<!doctype html') || start.startsWith('<html')) return { kind: 'html', text };
  if (type.includes('xml') || start.startsWith('<?xml') || start.startsWith('<urlset') || start.startsWith('<sitemapindex')) return { kind: 'xml', text };
  throw new ScanRefused(`${url.href} is neither a sitemap nor an HTML page (content-type ${type || 'none'})`);
}

function locs(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown) => {
    const loc = (entry as { loc?: unknown } | null)?.loc;
    return typeof loc === 'string' && loc.trim() !== '' ? [loc.trim()] : [];
  });
}

function parseSitemap(url: URL, text: string): { pages: string[]; sitemaps: string[] } {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ScanRefused(`${url.href} is not a sitemap: invalid XML (${valid.err.msg})`);
  const doc = xml.parse(text) as { urlset?: { url?: unknown }; sitemapindex?: { sitemap?: unknown } };
  if (doc.urlset === undefined && doc.sitemapindex === undefined) throw new ScanRefused(`${url.href} is not a sitemap: no urlset or sitemapindex`);
  return { pages: locs(doc.urlset?.url), sitemaps: locs(doc.sitemapindex?.sitemap) };
}

function absolute(href: string, base: URL): URL | null {
  return URL.canParse(href, base.href) ? new URL(href, base) : null;
}

/** A phrase for internal links from the page's last path segment: /blog/crm-for-startups gives "crm for startups". */
function slugPhrase(url: URL): string[] {
  const segment = decodeURIComponent(url.pathname.split('/').filter((part) => part !== '').pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  const phrase = segment.replace(/[-_+]+/g, ' ').trim().toLowerCase();
  return phrase.length >= 3 && !/^\d+$/.test(phrase.replace(/\s/g, '')) ? [phrase] : [];
}

interface Scan {
  source: 'sitemap' | 'blog';
  pages: Map<string, NewSitePage>;
  sitemapsRead: number;
  failures: Array<{ url: string; reason: string }>;
  /** Links and entries on another site, left out. */
  offSite: number;
}

function takePage(scan: Scan, site: string, url: URL | null, title: string | null): void {
  if (url === null || !['http:', 'https:'].includes(url.protocol) || ASSET.test(url.pathname)) return;
  if (siteOf(url) !== site) {
    scan.offSite++;
    return;
  }
  const key = pageUrl(url);
  if (scan.pages.has(key) || scan.pages.size >= MAX_DETECTED_PAGES) return;
  scan.pages.set(key, { url: key, title, keywords: slugPhrase(url) });
}

async function readSitemaps(outbound: SafeFetcher, site: string, start: URL, first: string, scan: Scan): Promise<void> {
  const queue: Array<{ url: URL; text: string | null }> = [{ url: start, text: first }];
  const seen = new Set([start.href]);
  let budget = MAX_SITEMAPS - 1;
  while (queue.length > 0 && scan.pages.size < MAX_DETECTED_PAGES) {
    const next = queue.shift()!;
    let found;
    try {
      const text = next.text ?? (await fetchDocument(outbound, next.url)).text;
      found = parseSitemap(next.url, text);
    } catch (error) {
      if (!(error instanceof ScanRefused) || next.text !== null) throw error;
      // A broken nested sitemap costs its own pages only.
      scan.failures.push({ url: next.url.href, reason: error.message });
      continue;
    }
    scan.sitemapsRead++;
    for (const loc of found.pages) takePage(scan, site, absolute(loc, next.url), null);
    for (const loc of found.sitemaps) {
      const nested = absolute(loc, next.url);
      if (nested === null || seen.has(nested.href)) continue;
      seen.add(nested.href);
      if (siteOf(nested) !== site) {
        scan.failures.push({ url: nested.href, reason: 'not on the workspace site: not read' });
      } else if (budget > 0) {
        budget--;
        queue.push({ url: nested, text: null });
      } else {
        scan.failures.push({ url: nested.href, reason: `not read: at most ${MAX_SITEMAPS} sitemaps per scan` });
      }
    }
  }
}

function readBlogRoot(site: string, root: URL, html: string, scan: Scan): void {
  const document = parseDocument(html);
  const base = DomUtils.findOne((element) => element.name === 'base' && typeof element.attribs.href === 'string', document.children);
  const baseUrl = (base && absolute(base.attribs.href!, root)) ?? root;
  for (const anchor of DomUtils.getElementsByTagName('a', document)) {
    const href = anchor.attribs.href;
    if (href === undefined) continue;
    const url = absolute(href.trim(), baseUrl);
    if (url === null || pageUrl(url) === pageUrl(root)) continue;
    const text = DomUtils.textContent(anchor).replace(/\s+/g, ' ').trim().slice(0, 200);
    takePage(scan, site, url, text === '' ? null : text);
  }
}

export interface DetectOptions {
  db: Kysely<Database>;
  clock: Clock;
  outbound: SafeFetcher;
  workspaceId: string;
  /** Default: the workspace website's host over https, /sitemap.xml. */
  url: string | undefined;
}

/**
 * detect_site_pages: reads a sitemap (following a sitemap index) or a blog root's same-site links, and stores the
 * pages the workspace does not have yet. Network first, outside any transaction; then one short transaction.
 */
export async function detectSitePages({ db, clock, outbound, workspaceId, url }: DetectOptions) {
  const website = await workspaceWebsite(db, workspaceId);
  const site = siteOf(website);
  const start = new URL(url ?? `https://${website.host}/sitemap.xml`);
  if (siteOf(start) !== site) throw BadInputError.field('url', `must be on the workspace's site (${site}); ${start.hostname} is not`);
  let scan: Scan;
  try {
    const first = await fetchDocument(outbound, start);
    scan = { source: first.kind === 'xml' ? 'sitemap' : 'blog', pages: new Map(), sitemapsRead: 0, failures: [], offSite: 0 };
    if (first.kind === 'xml') await readSitemaps(outbound, site, start, first.text, scan);
    else readBlogRoot(site, start, first.text, scan);
  } catch (error) {
    if (error instanceof ScanRefused) throw BadInputError.field('url', error.message);
    throw error;
  }
  const pages = [...scan.pages.values()];
  const stored = await db.transaction().execute((trx) => storeSitePages(trx, clock, workspaceId, pages, scan.source));
  return {
    url: start.href,
    source: scan.source,
    sitemapsRead: scan.sitemapsRead,
    found: pages.length,
    added: stored.added.length,
    alreadyKnown: stored.duplicates.length,
    overLimit: stored.overLimit.length,
    offSite: scan.offSite,
    failures: scan.failures,
  };
}
