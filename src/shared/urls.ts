/** Host of a URL without `www.`, lower-case; undefined when it is not an http(s) URL. */
export function domainOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.hostname.toLowerCase().replace(/^www\./, '');
}
