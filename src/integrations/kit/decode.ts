import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * A body as its Content-Encoding says it was sent; undici's request() leaves bodies compressed, and some providers
 * compress whatever is asked. The size cap holds after decompression too (a small gzip can unpack to gigabytes): past
 * `maxBytes`, zlib throws a RangeError.
 */
export function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const limit = { maxOutputLength: maxBytes };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body, limit);
    case 'deflate':
      return inflateSync(body, limit);
    case 'br':
      return brotliDecompressSync(body, limit);
    default:
      return body;
  }
}
