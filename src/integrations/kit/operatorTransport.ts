import { Agent, request } from 'undici';
import { OutboundTooLarge, shownUrl, type OutboundRequest, type OutboundResponse } from '../../outbound/safeFetch.js';

/**
 * Requests to an address the operator configured (a provider's API, or a local stand-in in tests): any scheme and
 * address the settings name, bounded in time and size, redirects answered rather than followed so credentials only go
 * where the settings say. Failures are thrown as undici raises them; the client reads them.
 */
export class OperatorTransport {
  private readonly agent = new Agent();

  async request(url: URL, init: OutboundRequest & { timeoutMs: number; maxBytes: number }): Promise<OutboundResponse> {
    const response = await request(url, {
      dispatcher: this.agent,
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      ...(init.body === undefined ? {} : { body: init.body }),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > init.maxBytes) {
        response.body.destroy();
        throw new OutboundTooLarge(`${shownUrl(url)}: the answer is larger than ${init.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
