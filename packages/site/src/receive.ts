import { answer } from './types.js';
import type { ChangeDelivery, Delivery } from './types.js';
import { checkChangeEvent, checkDelivery, type SeenDeliveries, type VerifyOptions } from './verify.js';

export interface ReceiverOptions {
  /** The destination's signing secret (`whsec_…`), shown once by create_destination. */
  secret: string;
  /**
   * Stores or updates the post (upsert by `article.id`: `article.updated` carries the same id) and returns its
   * public URL, on the endpoint's site, or nothing. Not called for a `test` event. Sightline waits 30 seconds at
   * most: do slow work after answering.
   */
  onArticle: (delivery: Delivery) => Promise<string | URL | undefined | void> | string | URL | undefined | void;
  /**
   * Called with each change event (an alert channel of kind webhook on this destination): `citation.lost`,
   * `crawler.blocked`, ... Without it change events are answered `{ ok: true, ignored: true }` and dropped.
   */
  onChange?: (delivery: ChangeDelivery) => Promise<void> | void;
  /**
   * Acts on each delivery once: MemorySeenDeliveries for one process, a shared store for several. Sightline sends an
   * attempt again with the same id after a timeout or a 5xx, so an id handled before is answered as it was then.
   */
  seen?: SeenDeliveries;
  /** Seconds the `webhook-timestamp` may be off, either way (300). */
  toleranceSeconds?: number;
  /** The receiver's clock in epoch milliseconds; Date.now by default. */
  now?: () => number;
}

/** What to answer a delivery: a status and a JSON body. */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Verifies a delivery and passes an article to onArticle. A test event is answered `{ ok: true, test: true }` and
 * dropped. The id is remembered with the answered URL only after onArticle returned, so a delivery the site failed to
 * store can be sent again; one it stored is answered the same way again (`duplicate: true`) without a second
 * onArticle, since Sightline resends an attempt whose answer it did not get in time. onArticle's own error is thrown.
 */
export async function receive(options: ReceiverOptions, body: Pick<VerifyOptions, 'rawBody'> | Pick<VerifyOptions, 'parsedBody'>, headers: VerifyOptions['headers']): Promise<Reply> {
  const checked = await checkDelivery({ ...options, ...body, headers } as VerifyOptions);
  if (!checked.ok && checked.reason === 'malformed') {
    const change = await checkChangeEvent({ ...options, ...body, headers } as VerifyOptions);
    if (change.ok) {
      if (options.onChange === undefined) return { status: 200, body: { ok: true, ignored: true } };
      await options.onChange(change.delivery);
      await options.seen?.remember(change.delivery.id, change.rememberUntil, null);
      return { status: 200, body: { ok: true } };
    }
    if (change.reason === 'replayed') return { status: 200, body: { ok: true, duplicate: true } };
  }
  if (!checked.ok && checked.reason === 'replayed') return { status: 200, body: { ...answer({ url: checked.earlierUrl ?? undefined }), duplicate: true } };
  if (!checked.ok) return { status: checked.status, body: { ok: false, error: checked.message } };
  const { delivery, rememberUntil } = checked;
  if (delivery.event === 'test') return { status: 200, body: { ok: true, test: true } };
  const url = (await options.onArticle(delivery)) ?? undefined;
  await options.seen?.remember(delivery.id, rememberUntil, url === undefined ? null : String(url));
  return { status: 200, body: { ...answer({ url }) } };
}
