import { parse } from 'tldts';

/**
 * Sites that rank for a company's name without being its website: social networks and code hosts, wikis and
 * encyclopaedias, company directories and review sites, by registrable domain (subdomains included).
 */
const NOT_A_COMPANY_SITE = new Set([
  'facebook.com', 'instagram.com', 'linkedin.com', 'twitter.com', 'x.com', 'youtube.com', 'tiktok.com', 'pinterest.com',
  'reddit.com', 'quora.com', 'medium.com', 'threads.net', 'github.com',
  'wikipedia.org', 'wikimedia.org', 'wikidata.org', 'fandom.com', 'britannica.com',
  'crunchbase.com', 'bloomberg.com', 'zoominfo.com', 'pitchbook.com', 'glassdoor.com', 'indeed.com', 'g2.com',
  'capterra.com', 'trustpilot.com', 'yelp.com', 'producthunt.com',
]);

/** Marketplaces, under any of their country domains (amazon.de, ebay.co.uk). */
const MARKETPLACES = new Set(['amazon', 'ebay', 'etsy', 'aliexpress', 'alibaba', 'walmart', 'rakuten', 'mercadolibre']);

/** App stores live on subdomains of companies that are sites in their own right. */
const APP_STORE_HOSTS = new Set(['apps.apple.com', 'play.google.com', 'chromewebstore.google.com']);

/** Whether a search result for a company's name can be that company's own website. */
export function canBeCompanySite(url: string): boolean {
  const parsed = parse(url, { allowPrivateDomains: true });
  if (parsed.hostname === null || parsed.domain === null) return false;
  if (APP_STORE_HOSTS.has(parsed.hostname)) return false;
  return !NOT_A_COMPANY_SITE.has(parsed.domain) && !MARKETPLACES.has(parsed.domainWithoutSuffix ?? '');
}
