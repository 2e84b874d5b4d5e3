import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';

/** Article pages are read up to this size; a page that is larger does not count as rendered. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function comparable(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export type LiveCheck = { live: true } | { live: false; reason: string };

/**
 * The rule: the address answers 200 with an HTML page whose source contains the article's title (case and runs of
 * white space ignored; as written or HTML-escaped). That proves the receiver published this article there, without
 * running the page's JavaScript, as crawlers do not either.
 */
export async function checkRendersLive(outbound: SafeFetcher, url: string, title: string, timeoutMs: number): Promise<LiveCheck> {
  let response;
  try {
    response = await outbound.request(new URL(url), { headers: { accept: 'text/html' }, timeoutMs, maxBytes: MAX_PAGE_BYTES });
  } catch (error) {
    if (error instanceof OutboundError) return { live: false, reason: error.message };
    throw error;
  }
  if (response.status !== 200) return { live: false, reason: `the page answered ${response.status}` };
  const type = String(response.headers['content-type'] ?? '');
  if (!/\bhtml\b/i.test(type)) return { live: false, reason: `the page is not HTML (content-type ${type || 'missing'})` };
  const page = comparable(response.body.toString('utf8'));
  const forms = [title, title.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)].map(comparable);
  if (!forms.some((form) => page.includes(form))) return { live: false, reason: 'the page does not contain the article title' };
  return { live: true };
}
