import { z } from 'zod';
import type { ThreadSourceState } from '../../../db/schema.js';
import { DEFAULT_PAUSE_MS, requestedPauseMs, SourceHttp, type SourceAnswer, type SourceTuning } from '../../social/sources/http.js';
import { kindOfStatus } from '../kit/providerError.js';
import type { SourcePauses } from '../../social/sources/pauses.js';
import { SourceError, type FoundThread, type SocialSource, type ThreadSearch } from '../../social/sources/source.js';
import { decodeEntities, excerptOf, plainText, titleOf } from '../../social/sources/text.js';

/** The API's largest page. */
const MAX_PAGE = 100;
/** A throttle_violation that does not say how long to wait. */
const THROTTLE_PAUSE_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/** The wrapper every answer comes in, errors included (api.stackexchange.com/docs/wrapper). */
const wrapperFields = {
  has_more: z.boolean().optional(),
  quota_remaining: z.number().optional(),
  backoff: z.number().optional(),
};

const questionSchema = z
  .object({
    question_id: z.number(),
    title: z.string(),
    body: z.string().optional(),
    link: z.string(),
    creation_date: z.number(),
    answer_count: z.number().optional(),
    score: z.number().optional(),
    owner: z.object({ display_name: z.string().optional() }).loose().optional(),
    closed_date: z.number().optional(),
    locked_date: z.number().optional(),
  })
  .loose();

const questionsSchema = z.object({ items: z.array(questionSchema), ...wrapperFields }).loose();

const errorSchema = z.object({ error_id: z.number(), error_name: z.string(), error_message: z.string().optional() }).loose();

type Question = z.infer<typeof questionSchema>;

function stateOf(question: Question): ThreadSourceState {
  return question.closed_date !== undefined || question.locked_date !== undefined ? 'locked' : 'open';
}

function nextUtcMidnight(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
}

export interface StackExchangeSettings {
  baseUrl: string;
  key: string | undefined;
  sites: string[];
}

/**
 * Stack Exchange API 2.3, one request per configured site. The API's throttles are honoured as recorded pauses: the
 * `backoff` field (seconds before the next call), a spent daily quota (it resets at UTC midnight) and throttle_violation.
 */
export class StackExchangeSource implements SocialSource {
  readonly name = 'stackexchange' as const;
  private readonly http: SourceHttp;
  /** The daily quota is per key (and per IP without one). */
  private readonly account: string;

  constructor(
    private readonly settings: StackExchangeSettings,
    private readonly pauses: SourcePauses,
    tuning: SourceTuning,
  ) {
    this.http = new SourceHttp('stackexchange', 'Stack Exchange', tuning);
    this.account = settings.key ?? '';
  }

  async search(search: ThreadSearch): Promise<FoundThread[]> {
    const found: FoundThread[] = [];
    for (const site of this.settings.sites) {
      const url = this.url('/search/advanced', site);
      url.searchParams.set('q', search.query);
      url.searchParams.set('sort', 'creation');
      url.searchParams.set('order', 'desc');
      url.searchParams.set('fromdate', String(Math.floor(search.since / 1000)));
      url.searchParams.set('pagesize', String(Math.min(search.limit, MAX_PAGE)));
      url.searchParams.set('filter', 'withbody');
      const { questions, paused } = await this.call(url);
      for (const question of questions) found.push(this.thread(site, question));
      // The backoff or the quota is for every site: what the earlier sites found is still worth returning.
      if (paused) break;
    }
    return found.sort((a, b) => b.postedAt - a.postedAt).slice(0, search.limit);
  }

  async states(externalIds: readonly string[]): Promise<Map<string, ThreadSourceState>> {
    const bySite = new Map<string, string[]>();
    for (const externalId of externalIds) {
      const [site, id] = externalId.split(':');
      if (site === undefined || id === undefined || !/^\d+$/.test(id)) throw new SourceError('stackexchange', `"${externalId}" is not a Stack Exchange id (site:question_id)`);
      bySite.set(site, [...(bySite.get(site) ?? []), id]);
    }
    const states = new Map<string, ThreadSourceState>(externalIds.map((externalId) => [externalId, 'deleted']));
    for (const [site, ids] of bySite) {
      const url = this.url(`/questions/${ids.join(';')}`, site);
      url.searchParams.set('pagesize', String(MAX_PAGE));
      const { questions } = await this.call(url);
      for (const question of questions) states.set(`${site}:${question.question_id}`, stateOf(question));
    }
    return states;
  }

  private url(path: string, site: string): URL {
    const url = new URL(`${this.settings.baseUrl}${path}`);
    url.searchParams.set('site', site);
    if (this.settings.key !== undefined) url.searchParams.set('key', this.settings.key);
    return url;
  }

  /** One call with the pauses it asks for recorded; `paused` says the next call would be refused. */
  private async call(url: URL): Promise<{ questions: Question[]; paused: boolean }> {
    await this.pauses.check('stackexchange', this.account);
    const answer = await this.http.send({ url: url.href });
    if (answer.status !== 200) throw await this.failure(answer);
    const page = this.http.read(answer, questionsSchema);
    const now = this.pauses.clock.now();
    let paused = false;
    if (page.backoff !== undefined && page.backoff > 0) {
      await this.pauses.pause('stackexchange', this.account, now + page.backoff * 1000, `Stack Exchange asked for a backoff of ${page.backoff} seconds`);
      paused = true;
    }
    if (page.quota_remaining === 0) {
      await this.pauses.pause('stackexchange', this.account, nextUtcMidnight(now), 'Stack Exchange daily quota spent (it resets at UTC midnight)');
      paused = true;
    }
    return { questions: page.items, paused };
  }

  /** A throttle becomes a recorded pause (the error to throw); any other error names Stack Exchange's error. */
  private async failure(answer: SourceAnswer): Promise<Error> {
    const now = this.pauses.clock.now();
    if (answer.status === 429) {
      return this.pauses.pause('stackexchange', this.account, now + (requestedPauseMs(answer, now) ?? DEFAULT_PAUSE_MS), 'Stack Exchange answered 429: too many requests');
    }
    let parsed: z.infer<typeof errorSchema> | undefined;
    try {
      parsed = errorSchema.safeParse(JSON.parse(answer.text)).data;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) return this.http.failure(answer);
    if (parsed.error_name === 'throttle_violation' || parsed.error_id === 502) {
      // "too many requests from this IP, more requests available in 86120 seconds"
      const seconds = Number(/(\d+) seconds/.exec(parsed.error_message ?? '')?.[1]);
      const until = Number.isFinite(seconds) ? now + seconds * 1000 : now + THROTTLE_PAUSE_MS;
      return this.pauses.pause('stackexchange', this.account, until, `Stack Exchange throttle_violation: ${parsed.error_message ?? 'too many requests'}`);
    }
    return new SourceError('stackexchange', `Stack Exchange answered ${answer.status}: ${parsed.error_name} (${parsed.error_id}) ${parsed.error_message ?? ''}`.trim(), kindOfStatus(answer.status), {
      status: answer.status,
    });
  }

  private thread(site: string, question: Question): FoundThread {
    const text = plainText(question.body ?? '');
    return {
      externalId: `${site}:${question.question_id}`,
      url: question.link,
      title: titleOf(decodeEntities(question.title), text),
      excerpt: excerptOf(text),
      community: site,
      author: question.owner?.display_name === undefined ? null : decodeEntities(question.owner.display_name),
      postedAt: question.creation_date * 1000,
      comments: question.answer_count ?? null,
      points: question.score ?? null,
      state: stateOf(question),
    };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
