import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A body as its Content-Encoding says it was sent; undici's request() leaves bodies compressed, and some providers compress whatever is asked. */
export function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}
