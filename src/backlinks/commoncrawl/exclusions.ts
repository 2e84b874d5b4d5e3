/**
 * Domains whose links in the Common Crawl graph are not editorial links: search engines (result pages, redirects,
 * cached copies), web archives and caches (they copy the linking page), and translation or web proxies (they rewrite
 * every page they serve). Backlink tools leave them out of referring-domain counts; without this, google.com and
 * archive.org alone would show up as referrers of almost every site.
 */

/**
 * Brands excluded under every public suffix: `google` covers google.com, google.de, google.co.uk and
 * googleusercontent.com is listed apart. Matched on the registrable domain's first label, which is all a domain-level
 * graph names.
 */
export const EXCLUDED_BRANDS: readonly string[] = [
  'google', // search, translate.google.*, its SERP redirects
  'googleusercontent', // webcache.googleusercontent.com (Google's cache), translated pages
  'bing',
  'bingj', // cc.bingj.com, Bing's cache
  'yandex', // search, translate.yandex.*, its cache
  'baidu',
  'duckduckgo',
  'ecosia',
  'qwant',
  'startpage',
  'sogou',
];

/** Domains excluded with all their subdomains (web.archive.org is archive.org in the domain graph). */
export const EXCLUDED_DOMAINS: readonly string[] = [
  'archive.org',
  'archive-it.org',
  'archive.today',
  'archive.ph',
  'archive.is',
  'archive.li',
  'archive.vn',
  'archive.md',
  'archive.fo',
  'ghostarchive.org',
  'webcitation.org',
  'cachedview.nl',
  'cachedview.com',
  'translate.goog', // Google Translate's proxy: example-com.translate.goog
  'microsofttranslator.com',
  'naver.net', // papago.naver.net, Naver's translation proxy
  'proxysite.com',
  'croxyproxy.com',
];

function reversed(domain: string): string {
  return domain.split('.').reverse().join('.');
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A DuckDB condition, true when the reversed domain in `column` (the graph's `com.example` notation) is excluded. The
 * first label of a forward domain is the last of the reversed one.
 */
export function excludedReferrerSql(column: string): string {
  const brands = `string_split(${column}, '.')[-1] IN (${EXCLUDED_BRANDS.map(literal).join(', ')})`;
  const domains = EXCLUDED_DOMAINS.map(reversed).map((rev) => `${column} = ${literal(rev)} OR starts_with(${column}, ${literal(`${rev}.`)})`);
  return `(${[brands, ...domains].join(' OR ')})`;
}
