import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderClient, TRANSIENT_STATUS, type ProviderClientOptions, type RetryPolicy, type Timing } from '../../src/integrations/kit/client.js';
import { fetchThrough } from '../../src/integrations/kit/fetchThrough.js';
import { ProviderError } from '../../src/integrations/kit/providerError.js';
import { providerMessage } from '../../src/integrations/kit/providerMessage.js';
import { CloudflareAuthError, CloudflareError, CloudflareRateLimitError } from '../../src/analytics/cdn/errors.js';
import { SearchConsoleError } from '../../src/integrations/google/searchConsole.js';
import { jobErrorOf, RetryableJobError } from '../../src/jobs/worker.js';
import { SchedulerAuthError, SchedulerError } from '../../src/repurpose/schedulers/scheduler.js';
import { EngineError } from '../../src/visibility/engines/engine.js';
import { TransientEngineError } from '../../src/visibility/engines/providerHttp.js';
import { SafeFetcher } from '../../src/outbound/safeFetch.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local provider whose answers each test queues, one per request, in order; it records what it was asked. */
let answers: Handler[] = [];
let requests: IncomingMessage[] = [];
let server: Server;
let origin = '';

const respond: Handler = (req, res) => {
  requests.push(req);
  const next = answers.shift() ?? ((_, r: ServerResponse) => r.writeHead(500).end('no answer queued'));
  next(req, res);
};

beforeAll(async () => {
  server = createServer(respond);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  answers = [];
  requests = [];
});
afterAll(() => closeServer(server));

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_, res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** Sleeps recorded instead of waited; jitter at a chosen point of its range. */
function fakeTiming(random = 0): Timing & { slept: number[] } {
  const slept: number[] = [];
  return { slept, now: () => Date.parse('2026-11-28T12:00:00Z'), sleep: async (ms) => void slept.push(ms), random: () => random };
}

const RETRY: RetryPolicy = { retries: 2, backoffMs: 1000, jitter: 0.2, retryStatus: TRANSIENT_STATUS, honourHints: true };

const clients: ProviderClient[] = [];
function client(options: Partial<ProviderClientOptions> = {}): ProviderClient {
  const created = new ProviderClient({ label: 'Example', reach: { kind: 'operator' }, timeoutMs: 2000, ...options });
  clients.push(created);
  return created;
}
afterAll(() => Promise.all(clients.map((c) => c.close())));

async function thrown(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('retries', () => {
  it('backs off exponentially with jitter inside its bounds, then answers', async () => {
    const timing = fakeTiming(0.999);
    answers = [json(503, { message: 'busy' }), json(502, {}), json(200, { ok: true })];
    expect(await client({ retry: RETRY, timing }).json({ url: `${origin}/x` }, z.object({ ok: z.boolean() }))).toEqual({ ok: true });
    expect(timing.slept).toHaveLength(2);
    expect(timing.slept[0]).toBeGreaterThanOrEqual(1000);
    expect(timing.slept[0]).toBeLessThan(1200);
    expect(timing.slept[1]).toBeGreaterThanOrEqual(2000);
    expect(timing.slept[1]).toBeLessThan(2400);
  });

  it.each([
    ['Retry-After in seconds', json(429, {}, { 'retry-after': '3' }), 3000],
    ['Retry-After as an HTTP date', json(429, {}, { 'retry-after': 'Sat, 28 Nov 2026 12:00:07 GMT' }), 7000],
    ['retry-after-ms', json(429, {}, { 'retry-after-ms': '1500', 'retry-after': '9' }), 1500],
    ['Google RetryInfo', json(429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }] } }), 1500],
  ])('waits what the provider asked for: %s', async (_, hint, waitMs) => {
    const timing = fakeTiming();
    answers = [hint, json(200, {})];
    await client({ retry: RETRY, timing }).send({ url: `${origin}/x` });
    expect(timing.slept).toEqual([waitMs]);
  });

  it('caps a requested wait, and ignores hints when the policy says so', async () => {
    const capped = fakeTiming();
    answers = [json(429, {}, { 'retry-after': '7200' }), json(200, {})];
    await client({ retry: RETRY, timing: capped, maxWaitMs: 60_000 }).send({ url: `${origin}/x` });
    expect(capped.slept).toEqual([60_000]);
    const ignored = fakeTiming();
    answers = [json(503, {}, { 'retry-after': '30' }), json(200, {})];
    await client({ retry: { ...RETRY, honourHints: false }, timing: ignored }).send({ url: `${origin}/x` });
    expect(ignored.slept).toEqual([1000]);
  });

  it('gives up after the last attempt with the last failure, its kind and its wait', async () => {
    answers = [json(429, {}), json(429, {}), json(429, { error: { message: 'slow down' } }, { 'retry-after': '4' })];
    const error = await thrown(client({ retry: RETRY, timing: fakeTiming() }).send({ url: `${origin}/x` }));
    expect(error).toMatchObject({ provider: 'Example', kind: 'rate_limited', status: 429, retryAfterMs: 4000, message: 'Example answered 429: slow down (after 3 attempts)' });
    expect(requests).toHaveLength(3);
  });

  it('answers statuses it does not retry to the caller, after one attempt', async () => {
    answers = [json(404, { message: 'no such thing' })];
    const answer = await client({ retry: RETRY, timing: fakeTiming() }).send({ url: `${origin}/x` });
    expect(answer.status).toBe(404);
    expect(requests).toHaveLength(1);
  });

  it('retries a failure a reader found inside a successful answer, when it is a transient ProviderError', async () => {
    const timing = fakeTiming();
    answers = [json(200, { busy: true }), json(200, { busy: false })];
    const result = await client({ retry: RETRY, timing }).exchange({ url: `${origin}/x` }, (answer) => {
      if ((JSON.parse(answer.text) as { busy: boolean }).busy) throw new ProviderError('Example', 'rate_limited', 'Example was busy');
      return 'done';
    });
    expect(result.value).toBe('done');
    expect(timing.slept).toHaveLength(1);
  });
});

describe('limits', () => {
  it('times out an attempt that does not answer', async () => {
    answers = [() => undefined];
    const error = await thrown(client({ timeoutMs: 200 }).send({ url: `${origin}/hang` }));
    expect(error).toMatchObject({ kind: 'unavailable', timedOut: true, message: 'Example did not answer within 0.2 seconds' });
  });

  it('refuses an answer larger than its cap', async () => {
    answers = [(_, res) => res.writeHead(200).end('x'.repeat(10_000))];
    const error = await thrown(client({ maxBytes: 1000 }).send({ url: `${origin}/big` }));
    expect(error.kind).toBe('bad_answer');
    expect(error.message).toContain('larger than 1000 bytes');
  });

  it('reads gzip answers, and asks for them', async () => {
    answers = [(_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ items: [1, 2] })))];
    expect(await client().json({ url: `${origin}/gz` }, z.object({ items: z.array(z.number()) }))).toEqual({ items: [1, 2] });
    expect(requests[0]!.headers['accept-encoding']).toContain('gzip');
  });

  it('holds the size cap after decompression', async () => {
    answers = [(_, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('x'.repeat(100_000)))];
    const error = await thrown(client({ maxBytes: 1000 }).send({ url: `${origin}/bomb` }));
    expect(error).toMatchObject({ kind: 'bad_answer', message: 'Example answered 200 with a body larger than 1000 bytes once decompressed' });
  });

  it('refuses a body that does not match its Content-Encoding', async () => {
    answers = [(_, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('plain')];
    const error = await thrown(client().send({ url: `${origin}/gz` }));
    expect(error).toMatchObject({ kind: 'bad_answer', message: 'Example answered 200 with a body that does not match its Content-Encoding (gzip)' });
  });
});

describe('answers read through a schema', () => {
  const schema = z.object({ id: z.string(), note: z.string().optional() });

  it('tolerates added fields and missing optional ones', async () => {
    answers = [json(200, { id: 'a', extra: { deep: true } })];
    expect(await client().json({ url: `${origin}/x` }, schema)).toEqual({ id: 'a' });
  });

  it('names what is missing, and refuses what is not JSON', async () => {
    answers = [json(200, { note: 'n' }), (_, res) => res.writeHead(200).end('<html>')];
    expect((await thrown(client().json({ url: `${origin}/x` }, schema))).message).toMatch(/^Example answered 200 in an unexpected shape: id /);
    expect(await thrown(client().json({ url: `${origin}/x` }, schema))).toMatchObject({ kind: 'bad_answer', message: 'Example answered 200 with a body that is not JSON' });
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [429, 'rate_limited'],
    [408, 'unavailable'],
    [500, 'unavailable'],
    [400, 'refused'],
  ])('turns a %i into %s', async (status, kind) => {
    answers = [json(status, { message: 'why' })];
    expect(await thrown(client().json({ url: `${origin}/x` }, schema))).toMatchObject({ kind, status, message: `Example answered ${status}: why` });
  });
});

describe('providerMessage', () => {
  it.each([
    ['OpenAI', { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }, 'Incorrect API key provided'],
    ['Google', { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }, 'Quota exceeded'],
    ['Cloudflare', { success: false, errors: [{ code: 10000, message: 'Authentication error' }, { message: 'and another' }] }, 'Authentication error (code 10000); and another'],
    ['a message field', { message: 'Invalid token' }, 'Invalid token'],
    ['a detail field', { detail: 'Not found.' }, 'Not found.'],
    ['an error string', { error: 'Invalid site' }, 'Invalid site'],
    ['a message beside an error code', { error: 'InvalidRequest', message: 'limit must be <= 100' }, 'limit must be <= 100'],
    ['Stack Exchange', { error_id: 502, error_message: 'too many requests from this IP', error_name: 'throttle_violation' }, 'too many requests from this IP'],
    ['RFC 7807', { type: 'about:blank', title: 'Bad Request', detail: 'date is required', status: 400 }, 'Bad Request: date is required'],
    ['Webflow', { code: 'resource_not_found', message: 'Requested resource not found' }, 'resource_not_found: Requested resource not found'],
    ['Wix', { message: 'generic', details: { applicationError: { description: 'Site not found', code: 'NOT_FOUND' } } }, 'Site not found'],
    ['a list of messages', { message: ['a', 'b'] }, 'a; b'],
  ])('reads %s', (_, body, message) => {
    expect(providerMessage(JSON.stringify(body))).toBe(message);
  });

  it("keeps Google's status name when asked", () => {
    const body = JSON.stringify({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } });
    expect(providerMessage(body, { googleStatus: true })).toBe('RESOURCE_EXHAUSTED: Quota exceeded');
  });

  it('falls back to the text, trimmed and capped, or says there was none', () => {
    expect(providerMessage('  Bad Gateway\n')).toBe('Bad Gateway');
    expect(providerMessage('x'.repeat(1000))).toHaveLength(300);
    expect(providerMessage('')).toBe('(no message)');
    expect(providerMessage(JSON.stringify({ unrelated: 1 }))).toBe('{"unrelated":1}');
  });
});

describe('the customer reach', () => {
  const strict = new SafeFetcher({ allowPrivateAddresses: false });
  // The fake listens on 127.0.0.1, which the guard refuses unless the operator allows private targets.
  const lenient = new SafeFetcher({ allowPrivateAddresses: true });
  let https: Awaited<ReturnType<typeof startHttpsServer>>;
  beforeAll(async () => {
    https = await startHttpsServer(respond);
  });
  afterAll(async () => {
    await Promise.all([strict.close(), lenient.close()]);
    await closeServer(https.server);
  });

  it('refuses private addresses without retrying, whether literal or resolved', async () => {
    const timing = fakeTiming();
    const refuse = client({ reach: { kind: 'customer', fetcher: strict }, retry: RETRY, timing });
    expect(await thrown(refuse.send({ url: `https://127.0.0.1:${https.port}/x` }))).toMatchObject({ kind: 'refused' });
    expect(await thrown(refuse.send({ url: `https://localhost:${https.port}/x` }))).toMatchObject({ kind: 'refused' });
    expect(await thrown(refuse.send({ url: `http://example.com/x` }))).toMatchObject({ kind: 'refused' });
    expect(timing.slept).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('reaches a private address the operator allowed, through the guard', async () => {
    answers = [json(200, { id: 'a' })];
    expect(await client({ reach: { kind: 'customer', fetcher: lenient } }).json({ url: `https://127.0.0.1:${https.port}/x` }, z.object({ id: z.string() }))).toEqual({ id: 'a' });
  });
});

describe('jobErrorOf', () => {
  it('makes transient provider errors retryable, with the wait asked for, and leaves the rest', () => {
    const limited = jobErrorOf(new ProviderError('X', 'rate_limited', 'slow', { retryAfterMs: 5000 }));
    expect(limited).toBeInstanceOf(RetryableJobError);
    expect(limited).toMatchObject({ message: 'slow', retryAfterMs: 5000 });
    expect(jobErrorOf(new ProviderError('X', 'unavailable', 'down'))).toBeInstanceOf(RetryableJobError);
    const auth = new ProviderError('X', 'auth', 'no');
    expect(jobErrorOf(auth)).toBe(auth);
    const other = new Error('other');
    expect(jobErrorOf(other)).toBe(other);
  });

  it("reads the areas' provider errors the same way, since each is a ProviderError", () => {
    const retried = [
      new CloudflareRateLimitError('Cloudflare is rate-limiting', 120),
      new CloudflareError('Cloudflare did not answer', true),
      new SearchConsoleError('the Search Console API answered 503', true),
      new SchedulerError('Buffer', 'Buffer answered 502', true),
      new TransientEngineError('DataForSEO', 'rate_limited', 'DataForSEO is busy', { retryAfterMs: 30_000 }),
    ].map(jobErrorOf);
    expect(retried.every((error) => error instanceof RetryableJobError)).toBe(true);
    expect(retried.map((error) => (error as RetryableJobError).retryAfterMs)).toEqual([120_000, 0, 0, 0, 30_000]);
    const final = [
      new CloudflareAuthError('the token cannot read zone z'),
      new CloudflareError('Cloudflare refused the query'),
      new SearchConsoleError('Google refused the refresh', false, true),
      new SchedulerAuthError('Buffer', 'Buffer refused the API key'),
      new SchedulerError('Buffer', 'Buffer refused the post', false),
      new EngineError('DataForSEO', 'provider_error', 'DataForSEO: 40210 Insufficient funds.'),
    ];
    for (const error of final) expect(jobErrorOf(error)).toBe(error);
  });
});

describe('fetchThrough', () => {
  it('answers as fetch does, through the client: status, headers, the decompressed body, a form sent as typed', async () => {
    let sent = '';
    answers = [
      (req, res) => {
        req.on('data', (chunk: Buffer) => (sent += chunk.toString()));
        req.on('end', () => res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ error: 'invalid_grant' }))));
      },
    ];
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r t' });
    const answer = await fetchThrough(client(), `${origin}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ error: 'invalid_grant' });
    expect(sent).toBe('grant_type=refresh_token&refresh_token=r+t');
    expect(requests[0]!.method).toBe('POST');
  });

  it('answers a 204 without a body, and rejects with the ProviderError when no answer comes', async () => {
    answers = [(_, res) => res.writeHead(204).end()];
    const empty = await fetchThrough(client(), `${origin}/x`, { method: 'GET', headers: {} });
    expect([empty.status, await empty.text()]).toEqual([204, '']);
    const unreachable = await thrown(fetchThrough(client(), 'http://127.0.0.1:1/x', { method: 'GET', headers: {} }));
    expect(unreachable.kind).toBe('unavailable');
  });
});
