import { receive, type ReceiverOptions } from './receive.js';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Answers a delivery in any runtime with web-standard Request and Response (Next.js route handlers, Hono, Bun, Deno,
 * Cloudflare Workers): 200 with `{ ok: true, url }` once onArticle stored it, `{ ok: true, test: true }` for a test
 * event, 401 for a bad signature or timestamp, 400 for a malformed body, 409 for a replayed id, 500 when onArticle threw
 * (passed to `onError`; Sightline retries a 5xx).
 */
export async function handleDelivery(request: Request, options: ReceiverOptions & { onError?: (error: unknown) => void }): Promise<Response> {
  if (request.method !== 'POST') return json(405, { ok: false, error: 'deliveries are POST requests' });
  let raw: ArrayBuffer;
  try {
    raw = await request.arrayBuffer();
  } catch {
    return json(400, { ok: false, error: 'the body could not be read' });
  }
  try {
    const reply = await receive(options, { rawBody: raw }, request.headers);
    return json(reply.status, reply.body);
  } catch (error) {
    options.onError?.(error);
    return json(500, { ok: false, error: 'the site could not store the article' });
  }
}
