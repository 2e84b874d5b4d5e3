import { z } from 'zod';
import { ProviderClient } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { ContactFinderError, type ContactFinder, type ContactOutcome, type ContactRequest, isUnusableAddress } from '../../outreach/contacts/finder.js';

/** Hunter's own limits are per second and per minute: a refusal for speed is over within a minute. */
const RATE_LIMIT_WAIT_MS = 60_000;
const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 1024 * 1024;
/** Addresses of a domain search read; each one tried costs a verification, so few are tried. */
const SEARCH_LIMIT = 10;
const VERIFICATIONS_AT_MOST = 3;

const errorsSchema = z.object({ errors: z.array(z.object({ id: z.string().nullish(), code: z.number().nullish(), details: z.string().nullish() })) });

const domainSearchSchema = z.object({
  data: z.object({
    emails: z.array(
      z.object({
        value: z.string(),
        type: z.string().nullish(),
        confidence: z.number().nullish(),
        first_name: z.string().nullish(),
        last_name: z.string().nullish(),
      }),
    ),
  }),
});

const emailFinderSchema = z.object({
  data: z.object({ email: z.string().nullish(), score: z.number().nullish(), first_name: z.string().nullish(), last_name: z.string().nullish() }),
});

const verifierSchema = z.object({ data: z.object({ status: z.string(), score: z.number().nullish() }) });

const fullName = (first: string | null | undefined, last: string | null | undefined) => [first, last].filter((part) => part).join(' ') || null;

const clampConfidence = (value: number | null | undefined) => Math.max(0, Math.min(100, Math.round(value ?? 0)));

export interface HunterSettings {
  /** Base URL ending before `/domain-search`, e.g. https://api.hunter.io/v2. */
  baseUrl: string;
  apiKey: string;
}

/**
 * Hunter's v2 API (or one compatible with it): the email finder for a named person, else the domain search's best
 * address, each checked by the email verifier before it is kept. Hunter sends no rate-limit headers: 403 means
 * requests came too fast, 429 that the plan's monthly usage is spent.
 */
export class HunterFinder implements ContactFinder {
  readonly source = 'hunter' as const;

  private readonly client: ProviderClient;

  constructor(
    private readonly settings: HunterSettings,
    outbound: Pick<SafeFetcher, 'request'>,
  ) {
    this.client = new ProviderClient({ label: 'Hunter', reach: { kind: 'customer', fetcher: outbound }, timeoutMs: TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES });
  }

  async find(request: ContactRequest): Promise<ContactOutcome> {
    if (request.firstName !== undefined && request.lastName !== undefined) {
      const found = emailFinderSchema.safeParse(await this.call('email-finder', { domain: request.domain, first_name: request.firstName, last_name: request.lastName }));
      if (!found.success) throw this.badShape('email-finder');
      const { email, score, first_name, last_name } = found.data.data;
      if (email && !isUnusableAddress(email) && (await this.deliverable(email))) {
        return { found: { email: email.toLowerCase(), name: fullName(first_name, last_name), confidence: clampConfidence(score), source: 'hunter' } };
      }
    }
    const searched = domainSearchSchema.safeParse(await this.call('domain-search', { domain: request.domain, limit: String(SEARCH_LIMIT) }));
    if (!searched.success) throw this.badShape('domain-search');
    // A named person before a role address, then Hunter's confidence.
    const candidates = searched.data.data.emails
      .filter((entry) => !isUnusableAddress(entry.value))
      .sort((a, b) => Number(b.type === 'personal') - Number(a.type === 'personal') || (b.confidence ?? 0) - (a.confidence ?? 0));
    for (const entry of candidates.slice(0, VERIFICATIONS_AT_MOST)) {
      if (await this.deliverable(entry.value)) {
        return { found: { email: entry.value.toLowerCase(), name: fullName(entry.first_name, entry.last_name), confidence: clampConfidence(entry.confidence), source: 'hunter' } };
      }
    }
    return { found: null, note: candidates.length === 0 ? `Hunter knows no address at ${request.domain}` : `Hunter's verifier rejected the addresses it knows at ${request.domain}` };
  }

  /** The verifier's verdict: only `invalid` rules an address out (accept_all and unknown servers cannot be told). */
  private async deliverable(email: string): Promise<boolean> {
    const verdict = verifierSchema.safeParse(await this.call('email-verifier', { email }));
    if (!verdict.success) throw this.badShape('email-verifier');
    return verdict.data.data.status !== 'invalid';
  }

  private badShape(endpoint: string): ContactFinderError {
    return new ContactFinderError('Hunter', 'bad_answer', `Hunter answered /${endpoint} in an unexpected shape; check HUNTER_BASE_URL`);
  }

  private async call(endpoint: 'domain-search' | 'email-finder' | 'email-verifier', params: Record<string, string>): Promise<unknown> {
    const url = new URL(`${this.settings.baseUrl}/${endpoint}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('api_key', this.settings.apiKey);
    let status: number;
    let text: string;
    try {
      ({ status, text } = await this.client.send({ url }));
    } catch (error) {
      // The URL carries the key: the message names the endpoint only.
      if (!(error instanceof ProviderError)) throw error;
      if (error.timedOut) throw new ContactFinderError('Hunter', 'unavailable', `Hunter did not answer /${endpoint} within ${TIMEOUT_MS / 1000} seconds; try again later`, { timedOut: true });
      throw new ContactFinderError('Hunter', 'unavailable', `Hunter could not be reached for /${endpoint}; try again later`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
    if (status === 200) return json;
    const details = errorsSchema.safeParse(json).data?.errors[0]?.details ?? '';
    const said = details === '' ? '' : `: ${details.slice(0, 200)}`;
    // Hunter's 403 is its per-second limit, its 429 the plan's quota: only the first passes in a minute.
    if (status === 403) throw new ContactFinderError('Hunter', 'rate_limited', `Hunter is refusing requests for going too fast (403)${said}; try again in a minute`, { status, retryAfterMs: RATE_LIMIT_WAIT_MS });
    if (status === 429) throw new ContactFinderError('Hunter', 'refused', `Hunter's usage for this plan is exhausted (429)${said}; it resets with the plan's period, or raise the plan`, { status });
    if (status === 401) throw new ContactFinderError('Hunter', 'auth', `Hunter refused HUNTER_API_KEY (401)${said}`, { status });
    // 400 (a domain it cannot search, a webmail domain) and 451 (a person who asked not to be processed): nothing to find.
    if (status === 400 || status === 451) return endpoint === 'email-verifier' ? { data: { status: 'unknown' } } : endpoint === 'email-finder' ? { data: {} } : { data: { emails: [] } };
    throw new ContactFinderError('Hunter', status >= 500 ? 'unavailable' : 'refused', `Hunter answered /${endpoint} with ${status}${said}; try again later`, { status });
  }
}
