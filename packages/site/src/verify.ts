import { parseChangeEvent, parseDeliveryEvent } from './parse.js';
import type { ChangeDelivery, ChangeEvent, Delivery, DeliveryEvent } from './types.js';

/** Request headers as a web `Headers` object or as Node's (and express's) plain object with lowercase names. */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Delivery ids already received, with the URL answered for each, so that a delivery is acted on once. `remember` is
 * called with the time (epoch milliseconds) after which the id may be forgotten: by then the delivery's timestamp is
 * outside the window anyway. A store shared by every instance of the site (Redis, a database table) covers them all.
 */
export interface SeenDeliveries {
  /** The URL answered for this id (null: answered without one), or undefined for an id not seen or already forgotten. */
  answered(id: string): Promise<string | null | undefined> | string | null | undefined;
  remember(id: string, until: number, url: string | null): Promise<void> | void;
}

/**
 * The ids in this process's memory: enough for a site served by one long-running process. Several instances or
 * serverless functions (each request may land on a fresh one) need a shared store implementing SeenDeliveries.
 */
export class MemorySeenDeliveries implements SeenDeliveries {
  private readonly ids = new Map<string, { until: number; url: string | null }>();
  private readonly now: () => number;
  private readonly maxIds: number;

  /** `now`: the clock `until` is read against (epoch ms); `maxIds`: beyond it the oldest ids are forgotten first. */
  constructor(options: { now?: () => number; maxIds?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxIds = options.maxIds ?? 100_000;
  }

  answered(id: string): string | null | undefined {
    const entry = this.ids.get(id);
    return entry !== undefined && entry.until >= this.now() ? entry.url : undefined;
  }

  remember(id: string, until: number, url: string | null): void {
    const now = this.now();
    for (const [known, entry] of this.ids) if (entry.until < now) this.ids.delete(known);
    this.ids.delete(id);
    this.ids.set(id, { until, url });
    // Maps iterate in insertion order: the first ids are the oldest.
    for (const known of this.ids.keys()) {
      if (this.ids.size <= this.maxIds) break;
      this.ids.delete(known);
    }
  }
}

interface CommonOptions {
  /** The destination's signing secret (`whsec_…`). */
  secret: string;
  headers: HeadersLike;
  /** How far the `webhook-timestamp` may be from now, either way; 300 seconds like the Standard Webhooks libraries. */
  toleranceSeconds?: number;
  /** The receiver's clock in epoch milliseconds; Date.now by default. */
  now?: () => number;
  /** Refuses a delivery whose id was seen before and remembers the ids of the verified ones. */
  seen?: SeenDeliveries;
}

export type VerifyOptions = CommonOptions &
  (
    | {
        /** The body exactly as received, before any JSON parsing: the signatures are checked over these bytes. */
        rawBody: Uint8Array | ArrayBuffer | string;
        parsedBody?: never;
      }
    | {
        /**
         * Only where the framework parsed the body and the raw bytes are gone: the bearer token is compared with the
         * secret instead of the signatures, and the timestamp and id are taken from their headers unsigned.
         */
        parsedBody: unknown;
        rawBody?: never;
      }
  );

/** Why a delivery was refused, with the HTTP status to answer. */
export type Failure =
  | { ok: false; reason: 'unauthorized'; status: 401; message: string }
  | { ok: false; reason: 'expired'; status: 401; message: string }
  /** `earlierUrl`: what was answered the first time, for a receiver that answers a resend the same way. */
  | { ok: false; reason: 'replayed'; status: 409; message: string; earlierUrl: string | null }
  | { ok: false; reason: 'malformed'; status: 400; message: string };

export type Verification = { ok: true; delivery: Delivery } | Failure;

export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

const STATUS = { unauthorized: 401, expired: 401, replayed: 409, malformed: 400 } as const;

// The cast pairs each reason with its status, which STATUS guarantees and TypeScript cannot follow through the index.
const fail = (reason: Failure['reason'], message: string): Failure => ({ ok: false, reason, status: STATUS[reason], message }) as Failure;

function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | readonly string[] | undefined>)[name];
  return typeof value === 'string' ? value : value?.[0];
}

function bytesOf(body: Uint8Array | ArrayBuffer | string): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  // A copy: Node's Buffers may sit on a larger shared pool, and Web Crypto takes a plain ArrayBuffer view.
  return new Uint8Array(body instanceof ArrayBuffer ? body.slice(0) : body.slice());
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Web Crypto's HMAC verify compares in constant time; it runs in Node, Deno, Bun, browsers and Workers alike. */
async function hmacMatches(key: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  return crypto.subtle.verify('HMAC', cryptoKey, signature, data);
}

/** Equal strings, compared in time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let difference = x.length ^ y.length;
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ (y[i] ?? 0);
  return difference === 0;
}

/** `X-Service-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the raw body, keyed with the secret as written. */
async function serviceSignatureMatches(secret: string, header: string | undefined, body: Uint8Array<ArrayBuffer>): Promise<boolean> {
  if (header === undefined || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  return hmacMatches(encoder.encode(secret), fromHex(header.slice('sha256='.length)), body);
}

/** `webhook-signature`: any of its space-separated `v1,<base64>` HMACs of `id.timestamp.body`, keyed with the secret's decoded bytes. */
async function standardSignatureMatches(secret: string, header: string | undefined, id: string, timestamp: string, body: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const key = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (header === undefined || key === undefined) return false;
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  for (const entry of header.split(' ')) {
    const [version, value] = entry.split(',', 2);
    const signature = version === 'v1' && value !== undefined ? fromBase64(value) : undefined;
    if (signature !== undefined && (await hmacMatches(key, signature, signed))) return true;
  }
  return false;
}

/** A checked delivery and when its id may be forgotten, before the id is remembered. */
export type Checked = { ok: true; delivery: Delivery; rememberUntil: number } | Failure;

/** Every check of verifyDelivery except remembering the id: the handlers remember it only once the site took the article. */
export function checkDelivery(options: VerifyOptions): Promise<Checked> {
  return checkSigned<DeliveryEvent>(options, parseDeliveryEvent);
}

/** The same checks of a change event. */
export function checkChangeEvent(options: VerifyOptions): Promise<{ ok: true; delivery: ChangeDelivery; rememberUntil: number } | Failure> {
  return checkSigned<ChangeEvent>(options, parseChangeEvent);
}

/** The signatures (or bearer), the timestamp window, the body's shape as `parse` reads it, the event header, and the id. */
async function checkSigned<Event extends { event: string }>(
  options: VerifyOptions,
  parse: (body: unknown) => Event | string,
): Promise<{ ok: true; delivery: Event & { id: string }; rememberUntil: number } | Failure> {
  const { secret, headers } = options;
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const id = readHeader(headers, 'webhook-id');
  const timestamp = readHeader(headers, 'webhook-timestamp');
  if (id === undefined || timestamp === undefined) return fail('unauthorized', 'the webhook-id or webhook-timestamp header is missing');

  let body: unknown;
  if (options.rawBody !== undefined) {
    const raw = bytesOf(options.rawBody);
    if (!(await serviceSignatureMatches(secret, readHeader(headers, 'x-service-signature'), raw))) {
      return fail('unauthorized', 'X-Service-Signature does not match the body and the secret');
    }
    // Also the Standard Webhooks signature: it covers the id and timestamp, so neither can be changed for a replay.
    if (!(await standardSignatureMatches(secret, readHeader(headers, 'webhook-signature'), id, timestamp, raw))) {
      return fail('unauthorized', 'webhook-signature does not match the id, timestamp, body and secret');
    }
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return fail('malformed', 'the body is not JSON');
    }
  } else {
    if (!sameText(readHeader(headers, 'authorization') ?? '', `Bearer ${secret}`)) return fail('unauthorized', 'the bearer token is not the signing secret');
    body = options.parsedBody;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        return fail('malformed', 'the body is not JSON');
      }
    }
  }

  const seconds = /^\d{1,15}$/.test(timestamp) ? Number(timestamp) : NaN;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Number.isNaN(seconds)) return fail('malformed', `webhook-timestamp ${JSON.stringify(timestamp)} is not whole seconds`);
  if (seconds < nowSeconds - toleranceSeconds) return fail('expired', `webhook-timestamp is more than ${toleranceSeconds} seconds old`);
  if (seconds > nowSeconds + toleranceSeconds) return fail('expired', `webhook-timestamp is more than ${toleranceSeconds} seconds in the future`);

  const event = parse(body);
  if (typeof event === 'string') return fail('malformed', event);
  const eventHeader = readHeader(headers, 'x-service-event');
  if (eventHeader !== undefined && eventHeader !== event.event) return fail('malformed', `X-Service-Event ${eventHeader} is not the body's event ${event.event}`);
  const earlierUrl = await options.seen?.answered(id);
  if (earlierUrl !== undefined) return { ...fail('replayed', `delivery ${id} was received before`), earlierUrl } as Failure;
  return { ok: true, delivery: { id, ...event }, rememberUntil: (seconds + toleranceSeconds) * 1000 };
}

/**
 * Checks one delivery as the receiver rules say, and never throws on bad input (only a failing `seen` store throws):
 * the signatures over the raw body (or, without it, the bearer token), the timestamp window, the body's shape, and,
 * with `seen`, that its id is new; a verified id is then remembered. Answers the typed delivery or why it was refused.
 */
export async function verifyDelivery(options: VerifyOptions): Promise<Verification> {
  const checked = await checkDelivery(options);
  if (!checked.ok) return checked;
  await options.seen?.remember(checked.delivery.id, checked.rememberUntil, null);
  return { ok: true, delivery: checked.delivery };
}

export type ChangeVerification = { ok: true; delivery: ChangeDelivery } | Failure;

/**
 * Checks one change event (Sightline's alerts to a webhook destination: `citation.lost`, `crawler.blocked`, ...) by the
 * same rules as verifyDelivery, with the same secret and headers; answers the typed change or why it was refused.
 */
export async function verifyChangeEvent(options: VerifyOptions): Promise<ChangeVerification> {
  const checked = await checkChangeEvent(options);
  if (!checked.ok) return checked;
  await options.seen?.remember(checked.delivery.id, checked.rememberUntil, null);
  return { ok: true, delivery: checked.delivery };
}
