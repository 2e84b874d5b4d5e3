// A local Hunter v2 API: domain-search, email-finder and email-verifier with Hunter's JSON shapes and error bodies,
// and its meanings of 403 (requests too fast) and 429 (the plan's usage is spent). Hunter publishes no sandbox; the
// shapes follow its API documentation's examples.
import type { Server } from 'node:https';
import { closeServer, startHttpsServer } from '../../support/localServers.js';

export const HUNTER_TEST_KEY = 'hunter-test-key';

export interface HunterPerson {
  value: string;
  type: 'personal' | 'generic';
  confidence: number;
  first_name: string | null;
  last_name: string | null;
  position?: string | null;
}

export class FakeHunter {
  /** Addresses Hunter knows per domain. */
  readonly people = new Map<string, HunterPerson[]>();
  /** Verifier statuses by address; `valid` when not set. */
  readonly verdicts = new Map<string, 'valid' | 'invalid' | 'accept_all' | 'unknown'>();
  /** People who asked Hunter to stop processing their data ("first last@domain", lower case): the finder answers 451, the domain search leaves them out. */
  readonly claimed = new Set<string>();
  /** A status every call answers with (403, 429, 401…) instead of data, while set. */
  failWith: number | undefined;
  /** Headers sent with those failures (a Retry-After Hunter does not send, to show it is not read). */
  failHeaders: Record<string, string> = {};
  private change: ((body: unknown) => unknown) | undefined;
  readonly requests: URL[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeHunter> {
    let fake: FakeHunter | undefined;
    const { server, port } = await startHttpsServer((req, res) =>
      fake!.answer(new URL(req.url ?? '/', 'https://localhost'), (status, body) => {
        const headers = { 'content-type': 'application/json; charset=utf-8', ...(status === 200 ? {} : fake!.failHeaders) };
        res.writeHead(status, headers).end(JSON.stringify(status === 200 && fake!.change !== undefined ? fake!.change(body) : body));
      }),
    );
    fake = new FakeHunter(server, `https://localhost:${port}/v2`);
    return fake;
  }

  get env(): Record<string, string> {
    return { HUNTER_API_KEY: HUNTER_TEST_KEY, HUNTER_BASE_URL: this.baseUrl };
  }

  /** From now on, every answer with data passes through `change` first (a field added or left out, as another API version might send). */
  changeAnswers(change: ((body: unknown) => unknown) | undefined): void {
    this.change = change;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private isClaimed(person: Pick<HunterPerson, 'first_name' | 'last_name'>, domain: string): boolean {
    return this.claimed.has(`${person.first_name ?? ''} ${person.last_name ?? ''}@${domain}`.toLowerCase());
  }

  private answer(url: URL, send: (status: number, body: unknown) => void): void {
    this.requests.push(url);
    const params = url.searchParams;
    if (params.get('api_key') !== HUNTER_TEST_KEY || this.failWith === 401) {
      return send(401, { errors: [{ id: 'authentication_failed', code: 401, details: 'No user found for the API key supplied' }] });
    }
    if (this.failWith === 403) return send(403, { errors: [{ id: 'too_many_requests', code: 403, details: "You've exceeded the rate limit of 15 requests per second." }] });
    if (this.failWith === 429) return send(429, { errors: [{ id: 'too_many_requests', code: 429, details: 'You have reached the limit of your plan.' }] });
    if (this.failWith !== undefined) return send(this.failWith, { errors: [{ id: 'server_error', code: this.failWith, details: 'Something went wrong' }] });
    const domain = params.get('domain') ?? '';
    switch (url.pathname) {
      case '/v2/domain-search': {
        if (domain === '') return send(400, { errors: [{ id: 'wrong_params', code: 400, details: 'You are missing the domain or company parameter' }] });
        const emails = (this.people.get(domain) ?? []).filter((person) => !this.isClaimed(person, domain)).slice(0, Number(params.get('limit') ?? 10));
        return send(200, {
          data: {
            domain,
            disposable: false,
            webmail: false,
            accept_all: false,
            pattern: '{first}',
            organization: domain.split('.')[0],
            emails: emails.map((person) => ({
              ...person,
              position: person.position ?? null,
              seniority: null,
              department: null,
              linkedin: null,
              twitter: null,
              phone_number: null,
              sources: [{ domain, uri: `http://${domain}/about`, extracted_on: '2026-01-03', last_seen_on: '2026-10-01', still_on_page: true }],
              verification: { date: null, status: null },
            })),
            linked_domains: [],
          },
          meta: { results: emails.length, limit: Number(params.get('limit') ?? 10), offset: 0, params: { domain, company: null, type: null, seniority: null, department: null } },
        });
      }
      case '/v2/email-finder': {
        const first = params.get('first_name')?.toLowerCase();
        const last = params.get('last_name')?.toLowerCase();
        if (domain === '' || !first || !last) return send(400, { errors: [{ id: 'wrong_params', code: 400, details: 'You are missing the first_name or last_name parameter' }] });
        if (this.isClaimed({ first_name: first, last_name: last }, domain)) {
          return send(451, { errors: [{ id: 'claimed_email', code: 451, details: 'The person behind this data asked us to stop processing it.' }] });
        }
        const person = (this.people.get(domain) ?? []).find((p) => p.first_name?.toLowerCase() === first && p.last_name?.toLowerCase() === last);
        return send(200, {
          data: {
            first_name: person?.first_name ?? params.get('first_name'),
            last_name: person?.last_name ?? params.get('last_name'),
            email: person?.value ?? null,
            score: person?.confidence ?? null,
            domain,
            accept_all: false,
            position: person?.position ?? null,
            twitter: null,
            linkedin_url: null,
            phone_number: null,
            company: domain.split('.')[0],
            sources: [],
            verification: { date: null, status: null },
          },
          meta: { params: { first_name: params.get('first_name'), last_name: params.get('last_name'), full_name: null, domain, company: null, max_duration: null } },
        });
      }
      case '/v2/email-verifier': {
        const email = params.get('email') ?? '';
        const status = this.verdicts.get(email) ?? 'valid';
        return send(200, {
          data: {
            status,
            result: status === 'valid' ? 'deliverable' : status === 'invalid' ? 'undeliverable' : 'risky',
            _deprecation_notice: 'Using result is deprecated, use status instead',
            score: status === 'valid' ? 100 : status === 'invalid' ? 0 : 50,
            email,
            regexp: true,
            gibberish: false,
            disposable: false,
            webmail: false,
            mx_records: true,
            smtp_server: true,
            smtp_check: status === 'valid',
            accept_all: status === 'accept_all',
            block: false,
            sources: [],
          },
          meta: { params: { email } },
        });
      }
      default:
        return send(404, { errors: [{ id: 'route_not_found', code: 404, details: 'This route does not exist' }] });
    }
  }
}
