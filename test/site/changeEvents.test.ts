import { describe, expect, it } from 'vitest';
import { MemorySeenDeliveries, verifyChangeEvent, verifyDelivery } from '../../packages/site/src/index.js';
import { receive } from '../../packages/site/src/receive.js';
import { deliveryHeaders, newSigningSecret } from '../../src/publishing/signing.js';

const NOW = Date.UTC(2026, 10, 29, 12);
const secret = newSigningSecret();
const change = {
  id: 'chg_1',
  kind: 'citation.lost',
  severity: 'warning',
  title: 'ChatGPT stopped citing acme.example',
  detectedAt: new Date(NOW).toISOString(),
  engine: 'chatgpt',
  queryId: 'qry_1',
  query: 'best crm for dentists',
  runId: 'run_1',
  details: { before: 2, after: 0 },
};

function signed(body: Record<string, unknown>, id = 'als_1_chg_1') {
  const text = JSON.stringify(body);
  return { headers: deliveryHeaders({ deliveryId: id, event: String(body.event), body: text, secret, now: NOW }), rawBody: text };
}

describe('change events', () => {
  it('verifies a change event signed by the service, typed, and refuses it where an article is expected', async () => {
    const event = signed({ event: 'citation.lost', timestamp: NOW, change });
    expect(await verifyChangeEvent({ secret, now: () => NOW, ...event })).toEqual({ ok: true, delivery: { id: 'als_1_chg_1', event: 'citation.lost', timestamp: NOW, change } });
    expect(await verifyDelivery({ secret, now: () => NOW, ...event })).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses a tampered change, an article event, a kind other than the event, and a missing field', async () => {
    const event = signed({ event: 'citation.lost', timestamp: NOW, change });
    expect(await verifyChangeEvent({ secret, now: () => NOW, headers: event.headers, rawBody: event.rawBody.replace('ChatGPT', 'Gemini') })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(await verifyChangeEvent({ secret, now: () => NOW, ...signed({ event: 'article.published', timestamp: NOW, change }) })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await verifyChangeEvent({ secret, now: () => NOW, ...signed({ event: 'citation.gained', timestamp: NOW, change }) })).toMatchObject({ ok: false, message: 'change.kind citation.lost is not the event citation.gained' });
    const { title: _title, ...untitled } = change;
    expect(await verifyChangeEvent({ secret, now: () => NOW, ...signed({ event: 'citation.lost', timestamp: NOW, change: untitled }) })).toMatchObject({ ok: false, message: 'change.title is missing' });
  });

  it('passes change events to onChange once, and answers them ignored without it', async () => {
    const event = signed({ event: 'crawler.blocked', timestamp: NOW, change: { ...change, kind: 'crawler.blocked', severity: 'critical' } });
    const got: string[] = [];
    const seen = new MemorySeenDeliveries({ now: () => NOW });
    const options = { secret, now: () => NOW, seen, onArticle: () => undefined, onChange: (delivery: { event: string }) => void got.push(delivery.event) };
    expect(await receive(options, { rawBody: event.rawBody }, event.headers)).toEqual({ status: 200, body: { ok: true } });
    expect(await receive(options, { rawBody: event.rawBody }, event.headers)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect(got).toEqual(['crawler.blocked']);
    expect(await receive({ secret, now: () => NOW, onArticle: () => undefined }, { rawBody: event.rawBody }, event.headers)).toEqual({ status: 200, body: { ok: true, ignored: true } });
  });
});
