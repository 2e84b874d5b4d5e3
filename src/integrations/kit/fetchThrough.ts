import type { ProviderCall, ProviderClient } from './client.js';

/** What a library hands its own fetch (oauth4webapi's customFetch): a form or text body, never a stream. */
export interface FetchLikeInit {
  method: NonNullable<ProviderCall['method']>;
  headers: Record<string, string>;
  body?: string | URLSearchParams;
}

/** Statuses whose answer has no body: the Fetch API refuses to build one with any. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * One call through a provider client, answered as the Fetch API answers, for a library that calls fetch itself: the
 * kit's timeout, size cap and redirects left unfollowed hold, and a call that gets no answer rejects with the kit's
 * ProviderError.
 */
export async function fetchThrough(client: ProviderClient, url: string, init: FetchLikeInit): Promise<Response> {
  const answer = await client.send({
    method: init.method,
    url,
    headers: init.headers,
    ...(init.body === undefined ? {} : { body: init.body.toString() }),
  });
  const headers = new Headers(Object.entries(answer.headers).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, value]])));
  // The kit already decompressed the body: its Content-Encoding no longer describes it.
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(BODILESS.has(answer.status) ? null : answer.text, { status: answer.status, headers });
}
