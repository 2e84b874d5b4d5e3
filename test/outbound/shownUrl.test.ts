import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboundError, SafeFetcher, shownUrl } from '../../src/outbound/safeFetch.js';

/** A provider's key rides in the query (Hunter's api_key), a customer's token in a webhook URL: no failure repeats them. */
describe('URLs in the outbound guard’s messages', () => {
  const fetcher = new SafeFetcher({ allowPrivateAddresses: true });
  afterAll(() => fetcher.close());

  it('leave out credentials, the query and the fragment, and say that a query was there', () => {
    expect(shownUrl(new URL('https://user:secret@api.example.com/v2/domain-search?domain=a.com&api_key=KEY#x'))).toBe('https://api.example.com/v2/domain-search?…');
    expect(shownUrl(new URL('https://hooks.example.com/sightline'))).toBe('https://hooks.example.com/sightline');
  });

  it('keep the key out of a refusal and out of a connection failure', async () => {
    const refused = await fetcher.request(new URL('https://user:secret@hooks.example.com/in')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as Error).message).toBe('https://hooks.example.com/in: URLs with credentials are not requested');

    // A server that takes the connection and closes it at once: the request fails after the URL was sent.
    const server = createServer((socket) => socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const failed = await fetcher.request(new URL(`https://127.0.0.1:${port}/v2/domain-search?domain=a.com&api_key=KEY`)).catch((error: unknown) => error);
    server.close();
    expect(failed).toBeInstanceOf(OutboundError);
    expect((failed as Error).message).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/v2/domain-search\\?…: `));
    expect((failed as Error).message).not.toContain('KEY');
  });
});
