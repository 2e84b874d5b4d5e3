import { loadBuffer } from 'cheerio';

/** A link to the target as the linking page has it. */
export interface LinkOnPage {
  /** False when the link, or the whole page (robots meta), asks search engines not to follow it. */
  dofollow: boolean;
  anchorText: string;
}

/** The `rel` values that withhold ranking credit (Google's qualify-outbound-links). */
const NOT_FOLLOWED = new Set(['nofollow', 'sponsored', 'ugc']);
/** Longer anchors (a whole card wrapped in a link) are cut: nobody reads past this, and the column stays small. */
const MAX_ANCHOR_LENGTH = 500;

/**
 * The form in which a link and its target are compared: http and https alike, the host without `www.`, no trailing
 * slash, no fragment; the query is kept, since it can name another page. Undefined for anything but http(s).
 */
export function linkKey(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const port = url.port === '' || url.port === '80' || url.port === '443' ? '' : `:${url.port}`;
  return `${url.hostname.replace(/^www\./, '')}${port}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

/** True when a robots directive list (`noindex, nofollow`) withholds credit from every link of the page. */
function robotsSayNofollow(content: string): boolean {
  return content
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim())
    .some((directive) => directive === 'nofollow' || directive === 'none');
}

/**
 * The link to `targetUrl` on the page (`<a href>`, relative hrefs resolved against the page's `<base>` or its URL),
 * or undefined when the page has none. When several point there, a followed one wins: that is the credit the page gives.
 */
export function findLink(page: { body: Buffer; url: URL; charset?: string | undefined }, targetUrl: string): LinkOnPage | undefined {
  const target = URL.canParse(targetUrl) ? linkKey(new URL(targetUrl)) : undefined;
  if (target === undefined) return undefined;
  const $ = loadBuffer(page.body, page.charset === undefined ? {} : { encoding: { transportLayerEncodingLabel: page.charset } });
  const baseHref = $('base[href]').first().attr('href');
  const base = baseHref !== undefined && URL.canParse(baseHref, page.url.href) ? new URL(baseHref, page.url) : page.url;
  const pageNofollow = $('meta[name="robots" i], meta[name="googlebot" i]')
    .toArray()
    .some((meta) => robotsSayNofollow($(meta).attr('content') ?? ''));
  let found: LinkOnPage | undefined;
  for (const anchor of $('a[href]').toArray()) {
    const href = ($(anchor).attr('href') ?? '').trim();
    if (!URL.canParse(href, base.href) || linkKey(new URL(href, base)) !== target) continue;
    const rel = ($(anchor).attr('rel') ?? '').toLowerCase().split(/\s+/);
    const text = $(anchor).text().replace(/\s+/g, ' ').trim() || ($(anchor).find('img[alt]').first().attr('alt') ?? '').trim();
    const link = { dofollow: !pageNofollow && !rel.some((value) => NOT_FOLLOWED.has(value)), anchorText: text.slice(0, MAX_ANCHOR_LENGTH) };
    if (link.dofollow) return link;
    found ??= link;
  }
  return found;
}
