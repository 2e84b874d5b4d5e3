import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { timeoutMessage } from '../../src/publishing/deliveryJobs.js';
import { receiverAddress } from '../../src/publishing/receiverAnswer.js';
import { deliveryHeaders, newSigningSecret, serviceSignature } from '../../src/publishing/signing.js';

describe('delivery signatures', () => {
  it("signs the raw body like GitHub's X-Hub-Signature-256 (GitHub's published vectors)", () => {
    const secret = "It's a Secret to Everybody";
    expect(serviceSignature(secret, '{"event":"article.requested","id":"evt_123"}')).toBe(
      'sha256=20f1bd2b2010bffb06ebc9d810780036af3db625cc952066ea54ea72308d848d',
    );
    expect(serviceSignature(secret, '')).toBe('sha256=66a0c074deaa0f489ead6537e0d32f9a344b90bbeda705b6ed45ecd3b413fb40');
  });

  it('makes 32-byte secrets in the Standard Webhooks form, a new one each time', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('carries Standard Webhooks headers that the standard verifier accepts, and rejects a changed body', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ event: 'test', timestamp: Date.now(), article: { id: 'a', title: 'é ünïcode' } });
    const headers = deliveryHeaders({ deliveryId: 'dlv_1', event: 'test', body, secret, now: Date.now() });
    expect(headers).toMatchObject({
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'x-service-event': 'test',
      'x-service-signature': serviceSignature(secret, body),
      'webhook-id': 'dlv_1',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('test', 'tset'), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });
});

describe("the receiver's answer", () => {
  const endpoint = 'https://api.acme.com/sightline';
  const read = (answer: unknown) => receiverAddress(Buffer.from(JSON.stringify(answer)), endpoint);

  it.each([
    ['{ ok, url }', { ok: true, url: 'https://acme.com/blog/crm' }],
    ['{ article: { url } }', { article: { url: 'https://acme.com/blog/crm' } }],
    ['{ data: { url } }', { data: { url: 'https://acme.com/blog/crm' } }],
  ])('takes the URL from %s', (_form, answer) => {
    expect(read(answer)).toEqual({ url: 'https://acme.com/blog/crm', note: null });
  });

  it('counts the bare site, www and api subdomains as one site, but not a look-alike or a sibling on a shared suffix', () => {
    expect(read({ url: 'https://www.acme.com/x' }).url).toBe('https://www.acme.com/x');
    expect(receiverAddress(Buffer.from('{"url":"https://api.acme.com/x"}'), 'https://acme.com/hook').url).toBe('https://api.acme.com/x');
    expect(read({ url: 'https://acme.com.evil.io/x' })).toEqual({ url: null, note: "the returned URL https://acme.com.evil.io/x is not on the endpoint's site, so it was ignored" });
    expect(receiverAddress(Buffer.from('{"url":"https://bob.github.io/x"}'), 'https://alice.github.io/hook').url).toBeNull();
  });

  it('takes no address from an answer without one, a relative or non-http URL, an overlong URL or a non-JSON answer', () => {
    expect(receiverAddress(Buffer.alloc(0), endpoint)).toEqual({ url: null, note: null });
    expect(read({ ok: true })).toEqual({ url: null, note: null });
    expect(read({ url: '/blog/crm' }).url).toBeNull();
    expect(read({ url: 'ftp://acme.com/crm' }).url).toBeNull();
    expect(read({ url: 42 }).url).toBeNull();
    // 'https://acme.com/' is 17 characters: 2048 in all is taken, 2049 is not.
    expect(read({ url: `https://acme.com/${'a'.repeat(2031)}` }).url === null).toBe(false);
    expect(read({ url: `https://acme.com/${'a'.repeat(2032)}` }).note).toBe('the returned URL is longer than 2048 characters');
    expect(receiverAddress(Buffer.from('<html>ok</html>'), endpoint)).toEqual({ url: null, note: 'the answer was not JSON' });
  });

  it('reports a timeout in the words of the specification', () => {
    expect(timeoutMessage(30_000)).toBe('Failed: the endpoint did not answer within 30 seconds');
  });
});
