import type { SiteEntry } from '../../integrations/google/searchConsole.js';

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * The Search Console property that holds the workspace website's data, among those the Google account can read
 * (unverified ones hold none):
 * 1. a domain property `sc-domain:<domain>` whose domain is the website's host without `www.`, or a parent of it; it
 *    covers every subdomain and protocol, so it wins (the most specific one if several match);
 * 2. else a URL-prefix property on the website's origin, or on its `www.` or bare twin with the same protocol, whose
 *    path is a prefix of the website's path (the website's own origin first, then the longest prefix).
 */
export function pickProperty(websiteUrl: string, sites: readonly SiteEntry[]): string | undefined {
  const website = new URL(websiteUrl);
  const host = bare(website.hostname);
  const readable = sites.filter((site) => site.permissionLevel !== 'siteUnverifiedUser');

  const domains = readable
    .map((site) => /^sc-domain:(.+)$/.exec(site.siteUrl)?.[1]?.toLowerCase())
    .filter((domain): domain is string => domain !== undefined && (host === domain || host.endsWith(`.${domain}`)))
    .sort((a, b) => b.length - a.length);
  if (domains.length > 0) return `sc-domain:${domains[0]}`;

  const prefixes = readable
    .filter((site) => URL.canParse(site.siteUrl))
    .map((site) => ({ siteUrl: site.siteUrl, url: new URL(site.siteUrl) }))
    .filter(({ url }) => url.protocol === website.protocol && bare(url.hostname) === host && website.pathname.startsWith(url.pathname))
    .sort((a, b) => Number(b.url.host === website.host) - Number(a.url.host === website.host) || b.url.pathname.length - a.url.pathname.length);
  return prefixes[0]?.siteUrl;
}
