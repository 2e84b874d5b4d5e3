import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BuilderApiError } from '../../../src/analytics/builders/http.js';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig, type SiteBuilderSettings } from '../../../src/config.js';
import { WebflowClient } from '../../../src/integrations/webflow/siteBuilder.js';
import { WixClient } from '../../../src/integrations/wix/siteBuilder.js';
import { failureOf } from '../../support/failure.js';
import type { BuilderReply, FakeBuilderServer } from '../fakes/siteBuilderServer.js';
import { siteBuilderEnv } from '../fakes/siteBuilders.js';
import { FakeWebflow } from '../fakes/webflow.js';
import { FakeWix } from '../fakes/wix.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// Webflow and Wix through the same cases, against their fakes, reading the site each installs on (Webflow's site,
// Wix's app instance) and failing with BuilderApiError (failure, status, retryAfterSeconds), a ProviderError of the
// kind, status and wait the case expects. Neither lists anything in pages, and their timeout is fixed at 20 seconds: a
// dropped connection stands in for no answer. An answer of an unexpected shape is `unavailable` here, not a bad answer:
// the kind follows the builder failure, whose answer to callers is a 503 to try again later (src/analytics/builders/).

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

interface BuilderContract {
  name: keyof SiteBuilderSettings;
  fake(): FakeBuilderServer;
  /** Reads the site's name through the builder's client, as the installer does first. */
  readSite(clock: ManualClock): Promise<string | null>;
  /** An error answer in the builder's words. */
  error(status: number, message: string, headers?: Record<string, string>): BuilderReply;
  /** A field the client cannot do without. */
  requiredField: string;
}

let webflow: FakeWebflow;
let wix: FakeWix;
let webflowSite: { id: string; token: string };
let wixInstance: string;

const CONTRACTS: BuilderContract[] = [
  {
    name: 'webflow',
    fake: () => webflow,
    readSite: async (clock) => (await new WebflowClient(loadConfig(siteBuilderEnv(webflow, wix)).siteBuilders.webflow!, webflowSite.token, clock).site(webflowSite.id)).displayName,
    error: (status, message, headers) => ({ status, body: { code: status === 429 ? 'too_many_requests' : 'error', message, externalReference: null, details: [] }, ...(headers ? { headers } : {}) }),
    requiredField: 'id',
  },
  {
    name: 'wix',
    fake: () => wix,
    readSite: async (clock) => (await new WixClient(loadConfig(siteBuilderEnv(webflow, wix)).siteBuilders.wix!, wixInstance, clock).site()).displayName,
    error: (status, message, headers) => ({ status, body: { message, details: { applicationError: { code: String(status), description: message } } }, ...(headers ? { headers } : {}) }),
    requiredField: 'access_token',
  },
];

beforeAll(async () => {
  [webflow, wix] = await Promise.all([FakeWebflow.start(), FakeWix.start()]);
  const added = webflow.addSite({ displayName: 'Acme' });
  webflowSite = { id: added.site.id, token: added.token };
  wixInstance = wix.addInstance('https://acme.example').instanceId;
  return () => Promise.all([webflow.close(), wix.close()]);
});

describe.each(CONTRACTS)('site builder contract: $name', (contract) => {
  const clock = new ManualClock(NOW);
  const everyCall = (reply: BuilderReply | { drop: true }) => {
    for (let i = 0; i < 2; i++) contract.fake().failNext(() => true, reply);
  };
  afterEach(() => contract.fake().clearScript());

  it("reads the site's name", async () => {
    expect(await contract.readSite(clock)).toMatch(/^Acme/);
  });

  it.each([401, 403])('is an auth failure for a %i', async (status) => {
    everyCall(contract.error(status, 'The token was refused.'));
    const error = await failureOf(contract.readSite(clock), BuilderApiError);
    expectProviderError(error, { kind: 'auth', status });
    expect([error.failure, error.status]).toEqual(['auth', status]);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))('is rate-limited for a 429 with $name, with the wait it asked for', async (hint) => {
    everyCall(contract.error(429, 'Too many requests.', hint.headers(NOW)));
    const error = await failureOf(contract.readSite(clock), BuilderApiError);
    // Read to the whole second, rounded up.
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: { min: Math.floor(hint.waitMs.min / 1000) * 1000, max: hint.waitMs.max } });
    expect([error.failure, error.status]).toEqual(['rate_limited', 429]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(hint.waitMs.min / 1000);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(hint.waitMs.max / 1000);
  });

  it('is unavailable for a 5xx', async () => {
    everyCall(contract.error(503, 'Service unavailable.'));
    const error = await failureOf(contract.readSite(clock), BuilderApiError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect([error.failure, error.status]).toEqual(['unavailable', 503]);
  });

  it('is unavailable, without a status, when the connection drops without an answer', async () => {
    everyCall({ drop: true });
    const error = await failureOf(contract.readSite(clock), BuilderApiError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: false });
    expect([error.failure, error.status]).toEqual(['unavailable', null]);
  });

  it('reads an answer with fields it does not know as before', async () => {
    contract.fake().changeAnswers(withUnknownFields);
    expect(await contract.readSite(clock)).toMatch(/^Acme/);
  });

  it('is unavailable for an answer without a field it needs', async () => {
    contract.fake().changeAnswers((body) => withoutField(body, contract.requiredField));
    const error = await failureOf(contract.readSite(clock), BuilderApiError);
    expectProviderError(error, { kind: 'unavailable' });
    expect([error.failure, error.message]).toEqual(['unavailable', expect.stringContaining('unexpected shape')]);
  });

  it('is not configured without its app settings', () => {
    expect(loadConfig({}).siteBuilders[contract.name]).toBeUndefined();
    expect(loadConfig(siteBuilderEnv(webflow, wix)).siteBuilders[contract.name]).toBeDefined();
  });
});
