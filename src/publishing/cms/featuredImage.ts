import { kindOfStatus } from '../../integrations/kit/providerError.js';
import { OutboundRefused, OutboundTooLarge, type OutboundResponse } from '../../outbound/safeFetch.js';
import type { CmsDeps } from './constructor.js';
import { DestinationError } from './destination.js';

/** Larger images are refused rather than uploaded: no CMS here wants a cover image of that size. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The image types every CMS here takes, with the file extension each is uploaded under. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

export interface DownloadedImage {
  bytes: Buffer;
  /** One of IMAGE_TYPES. */
  type: string;
  extension: string;
}

/**
 * A featured image's bytes, for a CMS that keeps its own copy: fetched through the SSRF guard (the address is the
 * article's, which anyone writing it may choose), at most 10 MB, of one of IMAGE_TYPES. A failure is the CMS's
 * DestinationError: final for an image that is missing, too large or not an image; tried again with the delivery when
 * the image's server is unavailable or rate-limits.
 */
export async function downloadImage(deps: Pick<CmsDeps, 'fetcher' | 'timeoutMs'>, cms: string, url: string): Promise<DownloadedImage> {
  const failed = (kind: 'refused' | 'unavailable' | 'rate_limited', reason: string, facts: { cause?: unknown } = {}) =>
    new DestinationError(cms, kind, `the featured image ${url} could not be uploaded to ${cms}: ${reason}`, null, facts);
  if (!URL.canParse(url)) throw failed('refused', 'it is not an address');
  let response: OutboundResponse;
  try {
    response = await deps.fetcher.request(new URL(url), { headers: { accept: Object.keys(IMAGE_TYPES).join(', ') }, timeoutMs: deps.timeoutMs, maxBytes: MAX_IMAGE_BYTES });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof OutboundTooLarge) throw failed('refused', `it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`, { cause: error });
    throw failed(error instanceof OutboundRefused ? 'refused' : 'unavailable', reason, { cause: error });
  }
  if (response.status !== 200) {
    const kind = kindOfStatus(response.status);
    // No status in the facts: the delivery's status code is the CMS's, and this one is the image server's.
    throw failed(kind === 'rate_limited' || kind === 'unavailable' ? kind : 'refused', `its server answered ${response.status}`);
  }
  const header = response.headers['content-type'];
  const type = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = IMAGE_TYPES[type];
  if (extension === undefined) throw failed('refused', `it is ${type || 'of no stated type'}, not one of ${Object.keys(IMAGE_TYPES).join(', ')}`);
  return { bytes: response.body, type, extension };
}
