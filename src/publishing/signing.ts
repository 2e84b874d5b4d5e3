import { createHmac, randomBytes } from 'node:crypto';

const STANDARD_WEBHOOKS_PREFIX = 'whsec_';

/**
 * A destination's signing secret: 32 random bytes in the Standard Webhooks form (`whsec_` + base64), so receivers can
 * hand it to the standard verifier libraries as it is; the specification's HMAC uses the whole string as its key.
 */
export function newSigningSecret(): string {
  return STANDARD_WEBHOOKS_PREFIX + randomBytes(32).toString('base64');
}

/** `X-Service-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret as written. */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** `webhook-signature`: Standard Webhooks v1, HMAC-SHA256 of `id.timestamp.body` keyed with the secret's decoded bytes. */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(STANDARD_WEBHOOKS_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

export interface SignedDelivery {
  deliveryId: string;
  event: string;
  body: string;
  secret: string;
  /** The attempt's time; each attempt signs its own timestamp, so a receiver's replay window applies per attempt. */
  now: number;
}

/** Every header of one delivery attempt: the specification's, then the Standard Webhooks ones (webhook-id is the delivery id, the same on every attempt). */
export function deliveryHeaders(delivery: SignedDelivery): Record<string, string> {
  const timestamp = Math.floor(delivery.now / 1000);
  return {
    authorization: `Bearer ${delivery.secret}`,
    'content-type': 'application/json',
    'x-service-signature': serviceSignature(delivery.secret, delivery.body),
    'x-service-event': delivery.event,
    'webhook-id': delivery.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardWebhookSignature(delivery.secret, delivery.deliveryId, timestamp, delivery.body),
  };
}
