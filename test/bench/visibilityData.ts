/**
 * The benchmark's visibility workspace, written straight into the tables in large batches (going through the
 * recording code one answer at a time would take hours): `queries` tracked queries (5,000 by default), 10
 * competitors, 52 weekly check runs on six engines (at 5,000 queries 1,560,000 answers, each classified for the brand
 * and every competitor: 17,160,000 mention rows), the daily pre-aggregates exactly as the recording code would leave
 * them, a Google and a Bing rank check per query and run, and Search Console rows (the runner adds 100 published
 * articles). Seeded, so every run generates the same data.
 */
import type { EngineName } from '../../db/schema.js';
import { ENGINE_NAMES } from '../../src/visibility/engines/engine.js';
import { engineMask } from '../../src/visibility/rankings/latestChecks.js';
import { pageKey } from '../../src/visibility/rankings/pages.js';
import { seededRandom, type BulkWriter, type Row } from './store.js';

export const COMPETITORS = 10;
export const WEEKS = 52;
export const ARTICLES = 100;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** A table's columns with their PostgreSQL types (for the unnest casts). */
export const VISIBILITY_TABLES = {
  queries: { id: 'text', workspace_id: 'text', text: 'text', text_key: 'text', source: 'text', suggested_title: 'text', hidden_at: 'bigint', created_at: 'bigint' },
  competitors: { id: 'text', workspace_id: 'text', name: 'text', website_url: 'text', domain: 'text', aliases: 'text', positioning: 'text', created_at: 'bigint', removed_at: 'bigint' },
  check_runs: {
    id: 'text',
    workspace_id: 'text',
    trigger: 'text',
    state: 'text',
    engines: 'text',
    runs_per_query: 'integer',
    planned: 'integer',
    completed: 'integer',
    failed: 'integer',
    created_at: 'bigint',
    finished_at: 'bigint',
  },
  engine_answers: {
    id: 'text',
    workspace_id: 'text',
    run_id: 'text',
    query_id: 'text',
    engine: 'text',
    run_index: 'integer',
    model: 'text',
    answer_text: 'text',
    citations: 'text',
    latency_ms: 'integer',
    error_class: 'text',
    error_message: 'text',
    brand_result: 'text',
    checked_at: 'bigint',
  },
  answer_mentions: { answer_id: 'text', workspace_id: 'text', subject_id: 'text', result: 'text', position: 'integer', sentiment: 'text', sentiment_score: 'integer', passage: 'text' },
  visibility_daily: {
    workspace_id: 'text',
    day: 'bigint',
    engine: 'text',
    subject_id: 'text',
    answers: 'integer',
    answers_with_citations: 'integer',
    cited: 'integer',
    mentioned: 'integer',
    failed: 'integer',
    not_shown: 'integer',
    positive: 'integer',
    neutral: 'integer',
    negative: 'integer',
    sentiment_score_sum: 'integer',
  },
  cited_domains_daily: { workspace_id: 'text', day: 'bigint', engine: 'text', domain: 'text', answers: 'integer' },
  rank_checks: {
    id: 'text',
    workspace_id: 'text',
    run_id: 'text',
    query_id: 'text',
    search_engine: 'text',
    position: 'integer',
    url: 'text',
    results: 'text',
    ai_overview_shown: 'integer',
    ai_overview_cites_us: 'integer',
    error_class: 'text',
    error_message: 'text',
    checked_at: 'bigint',
  },
  rank_latest: { workspace_id: 'text', query_id: 'text', search_engine: 'text', position: 'integer', url: 'text', page_key: 'text', checked_at: 'bigint', overview_checks: 'text' },
  query_latest: { workspace_id: 'text', query_id: 'text', named: 'integer', answered: 'integer', google_checked: 'integer', google_position: 'integer', text_key: 'text', impressions: 'integer', added_at: 'bigint', google_checked_at: 'bigint', engine_checks: 'text' },
  search_console_queries: { workspace_id: 'text', period: 'text', query: 'text', clicks: 'integer', impressions: 'integer', query_id: 'text' },
  search_console_connections: {
    workspace_id: 'text',
    property: 'text',
    refresh_token: 'text',
    state_hash: 'text',
    state_expires_at: 'bigint',
    connected_at: 'bigint',
    last_sync_at: 'bigint',
    last_error: 'text',
  },
  search_console_rows: {
    workspace_id: 'text',
    period: 'text',
    query: 'text',
    page: 'text',
    clicks: 'integer',
    impressions: 'integer',
    position: 'real',
    start_date: 'text',
    end_date: 'text',
    page_key: 'text',
  },
} as const;

type Table = keyof typeof VISIBILITY_TABLES;
export type VisibilityWriter = BulkWriter<Table>;

export interface GeneratedWorkspace {
  workspaceId: string;
  brandName: string;
  brandDomain: string;
  now: number;
}

export interface GenerationReport {
  rows: Record<string, number>;
  /** A time in the middle of the history, for a deep list_citations page. */
  middle: number;
}

const TOPICS = ['crm', 'invoicing', 'payroll', 'analytics', 'helpdesk', 'scheduling', 'inventory', 'email marketing', 'project management', 'bookkeeping'];
const AUDIENCES = ['dentists', 'startups', 'agencies', 'schools', 'restaurants', 'law firms', 'nonprofits', 'retailers', 'clinics', 'freelancers'];
const FORMS = ['best {t} for {a}', '{t} software for {a}', 'how do {a} choose {t}', 'cheapest {t} for {a}', 'top rated {t} tools for {a}'];
/** Beyond the first 500 combinations, a place makes each query distinct (40 places: up to 20,000 queries). */
const PLACES = ['', ...['london', 'paris', 'berlin', 'madrid', 'rome', 'vienna', 'dublin', 'lisbon', 'oslo', 'prague'].flatMap((city) => [city, `${city} suburbs`, `greater ${city}`, `central ${city}`])].slice(0, 40);
const LABELS = ['positive', 'neutral', 'negative'] as const;
const MODELS: Record<EngineName, string> = {
  chatgpt: 'gpt-5-search',
  perplexity: 'sonar-pro',
  gemini: 'gemini-2.5-flash',
  claude: 'claude-sonnet-4-5',
  google_ai_overview: 'google-ai-overview',
  copilot: 'copilot',
};

const id = (prefix: string, n: number) => `${prefix}_bench${String(n).padStart(9, '0')}`;
const utcDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

function queryText(n: number): string {
  const form = FORMS[n % FORMS.length]!;
  const topic = TOPICS[Math.floor(n / FORMS.length) % TOPICS.length]!;
  const audience = AUDIENCES[Math.floor(n / (FORMS.length * TOPICS.length)) % AUDIENCES.length]!;
  const place = PLACES[Math.floor(n / (FORMS.length * TOPICS.length * AUDIENCES.length))]!;
  return form.replace('{t}', topic).replace('{a}', place === '' ? audience : `${audience} in ${place}`);
}

export function articleUrl(domain: string, n: number): string {
  return `https://${domain}/blog/${queryText(n).replace(/\s+/g, '-')}`;
}

/** The n-th tracked query: its id and text. */
export const trackedQuery = (n: number) => ({ id: id('qry', n), text: queryText(n) });

/** Writes the whole history through `writer`; the workspace, its brand and its articles already exist. */
export async function generateVisibility(writer: VisibilityWriter, ws: GeneratedWorkspace, queryCount: number): Promise<GenerationReport> {
  const rand = seededRandom(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const counts: Record<string, number> = {};
  const write = async (table: Table, rows: Row[]) => {
    counts[table] = (counts[table] ?? 0) + rows.length;
    await writer.insert(table, rows);
  };
  const start = ws.now - WEEKS * WEEK_MS;

  const queries = Array.from({ length: queryCount }, (_, n) => trackedQuery(n));
  await write(
    'queries',
    queries.map((q) => [q.id, ws.workspaceId, q.text, q.text, 'user', null, null, start - DAY_MS]),
  );
  const competitors = Array.from({ length: COMPETITORS }, (_, n) => ({ id: id('cmp', n), name: `Rival ${String.fromCharCode(65 + n)}`, domain: `rival-${n}.example` }));
  await write(
    'competitors',
    competitors.map((c) => [c.id, ws.workspaceId, c.name, `https://${c.domain}`, c.domain, '[]', null, start - DAY_MS, null]),
  );
  const subjects = [{ id: 'brand', name: ws.brandName, domain: ws.brandDomain }, ...competitors];
  const otherDomains = Array.from({ length: 400 }, (_, n) => `source-${n}.example`);

  const daily = new Map<string, Row>();
  const cited = new Map<string, Row>();
  // The latest checks, as the recording code keeps them: one run per week, so each week's check replaces the last.
  const engineLatest = new Map<string, Row>();
  const rankLatest = new Map<string, Row>();
  const overviews = new Map<string, Array<[number, number, number]>>();
  let answerNumber = 0;
  let rankNumber = 0;
  for (let week = 0; week < WEEKS; week++) {
    const runId = id('run', week);
    const runStart = start + (week + 1) * WEEK_MS - DAY_MS;
    const answers: Row[] = [];
    const mentions: Row[] = [];
    let failedChecks = 0;
    for (let i = 0; i < queryCount * ENGINE_NAMES.length; i++) {
      const engine = ENGINE_NAMES[i % ENGINE_NAMES.length]!;
      const query = queries[Math.floor(i / ENGINE_NAMES.length)]!;
      // Distinct times: the unique (workspace, checked_at) cursor that list_citations pages by.
      const checkedAt = runStart + i * 1000;
      const day = utcDay(checkedAt);
      const answerId = id('ans', answerNumber++);
      const failed = rand() < 0.03;
      // The search pages' AI answers show for some queries only.
      const notShown = !failed && (engine === 'google_ai_overview' || engine === 'copilot') && rand() < 0.35;
      const domains = new Set<string>();
      if (!failed && !notShown) {
        const citationCount = rand() < 0.15 ? 0 : 1 + Math.floor(rand() * 6);
        if (citationCount > 0 && rand() < 0.2) domains.add(ws.brandDomain);
        for (const competitor of competitors) if (citationCount > 0 && rand() < 0.06) domains.add(competitor.domain);
        while (domains.size < citationCount) domains.add(otherDomains[Math.floor(Math.pow(rand(), 2) * otherDomains.length)]!);
      }
      const citations = [...domains].map((domain, rank) => ({ url: `https://${domain}/${query.text.replace(/\s+/g, '-')}`, domain, title: `${domain} on ${query.text}`, rank: rank + 1 }));
      const results = subjects.map((subject) => {
        if (failed) return 'failed';
        if (notShown) return 'not_shown';
        if (domains.has(subject.domain)) return 'cited';
        return rand() < (subject.id === 'brand' ? 0.25 : 0.12) ? 'mentioned' : 'none';
      });
      const named = subjects.filter((_, s) => results[s] === 'cited' || results[s] === 'mentioned');
      const order = named.map((subject) => subject.id).sort(() => rand() - 0.5);
      const text =
        failed || notShown
          ? null
          : `For "${query.text}", ${named.length === 0 ? 'a spreadsheet and a few specialist tools' : named.map((s) => s.name).join(', ')} come up most. ` +
            'Compare pricing, onboarding time, integrations with accounting and calendar tools, and the quality of support before choosing; ' +
            'most vendors offer a free trial, and reviews from teams of a similar size are the best guide. '.repeat(3);
      answers.push([
        answerId,
        ws.workspaceId,
        runId,
        query.id,
        engine,
        1,
        failed ? null : MODELS[engine],
        text,
        JSON.stringify(citations),
        failed || notShown ? null : 800 + Math.floor(rand() * 8000),
        failed ? 'timeout' : null,
        failed ? 'no answer within 120 seconds' : null,
        results[0]!,
        checkedAt,
      ]);
      if (failed) failedChecks++;
      engineLatest.set(`${query.id}|${engine}`, [ws.workspaceId, query.id, engine, runId, results[0]!, checkedAt]);
      subjects.forEach((subject, s) => {
        const result = results[s]!;
        const isNamed = result === 'cited' || result === 'mentioned';
        const label = isNamed ? (rand() < 0.5 ? LABELS[0] : rand() < 0.7 ? LABELS[1] : LABELS[2]) : null;
        const score = label === 'positive' ? 60 + Math.floor(rand() * 36) : label === 'neutral' ? 40 + Math.floor(rand() * 21) : label === 'negative' ? 5 + Math.floor(rand() * 36) : null;
        mentions.push([answerId, ws.workspaceId, subject.id, result, isNamed ? order.indexOf(subject.id) + 1 : null, label, score, isNamed ? `${subject.name} is one of the options for ${query.text}.` : null]);
        const key = `${day}|${engine}|${subject.id}`;
        const counts = daily.get(key) ?? [ws.workspaceId, day, engine, subject.id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        const add = (column: number, value: number) => (counts[column] = (counts[column] as number) + value);
        add(4, failed || notShown ? 0 : 1);
        add(5, !failed && domains.size > 0 ? 1 : 0);
        add(6, result === 'cited' ? 1 : 0);
        add(7, result === 'mentioned' ? 1 : 0);
        add(8, failed ? 1 : 0);
        add(9, notShown ? 1 : 0);
        add(10, label === 'positive' ? 1 : 0);
        add(11, label === 'neutral' ? 1 : 0);
        add(12, label === 'negative' ? 1 : 0);
        add(13, score ?? 0);
        daily.set(key, counts);
      });
      for (const domain of domains) {
        const key = `${day}|${engine}|${domain}`;
        const row = cited.get(key) ?? [ws.workspaceId, day, engine, domain, 0];
        row[4] = (row[4] as number) + 1;
        cited.set(key, row);
      }
    }
    const checks = queryCount * ENGINE_NAMES.length + 2 * queryCount;
    await write('check_runs', [[runId, ws.workspaceId, 'schedule', 'done', JSON.stringify(ENGINE_NAMES), 1, checks, checks - failedChecks, failedChecks, runStart, runStart + DAY_MS / 2]]);
    await write('engine_answers', answers);
    await write('answer_mentions', mentions);

    const ranks: Row[] = [];
    queries.forEach((query, n) => {
      for (const searchEngine of ['google', 'bing'] as const) {
        const failed = rand() < 0.02;
        const position = failed || rand() < 0.4 ? null : 1 + Math.floor(rand() * 30);
        const ours = n < ARTICLES ? articleUrl(ws.brandDomain, n) : `https://${ws.brandDomain}/features/${n}`;
        const top = Array.from({ length: 30 }, (_, p) => {
          const url = position === p + 1 ? ours : `https://${pick(otherDomains)}/${p}`;
          return { position: p + 1, url, domain: new URL(url).hostname, title: null };
        });
        const shown = searchEngine === 'google' && !failed ? rand() < 0.5 : null;
        const citesUs = shown === null ? null : shown && rand() < 0.3 ? 1 : 0;
        const checkedAt = runStart + DAY_MS / 4 + n * 1000;
        if (!failed) {
          const observations = overviews.get(query.id) ?? [];
          if (shown !== null) observations.unshift([checkedAt, shown ? 1 : 0, citesUs!]);
          overviews.set(query.id, observations.slice(0, 16));
          const url = position === null ? null : ours;
          rankLatest.set(`${query.id}|${searchEngine}`, [
            ws.workspaceId,
            query.id,
            searchEngine,
            position,
            url,
            url === null ? null : pageKey(url),
            checkedAt,
            searchEngine === 'google' ? JSON.stringify(overviews.get(query.id)) : '[]',
          ]);
        }
        ranks.push([
          id('rnk', rankNumber++),
          ws.workspaceId,
          runId,
          query.id,
          searchEngine,
          position,
          position === null ? null : ours,
          failed ? '[]' : JSON.stringify(top),
          shown === null ? null : shown ? 1 : 0,
          citesUs,
          failed ? 'provider_error' : null,
          failed ? 'the provider answered 500' : null,
          checkedAt,
        ]);
      }
    });
    await write('rank_checks', ranks);
  }
  await write('visibility_daily', [...daily.values()]);
  await write('cited_domains_daily', [...cited.values()]);
  await write('rank_latest', [...rankLatest.values()]);

  await write('search_console_connections', [[ws.workspaceId, `sc-domain:${ws.brandDomain}`, 'bench-refresh-token', null, null, start, ws.now - DAY_MS, null]]);
  const consoleRows: Row[] = [];
  const dateRange = (endsBefore: number) => [new Date(endsBefore - 28 * DAY_MS).toISOString().slice(0, 10), new Date(endsBefore - DAY_MS).toISOString().slice(0, 10)];
  const untracked = Array.from({ length: 3000 }, (_, n) => `${ws.brandName.toLowerCase()} ${pick(TOPICS)} ${n}`);
  // A sync keeps two periods of 28 days, the same queries in both.
  for (const [period, range] of [['current', dateRange(ws.now)], ['previous', dateRange(ws.now - 28 * DAY_MS)]] as const) {
    queries.slice(0, Math.floor(0.8 * queryCount)).forEach((query, n) => {
      const pages = [n < ARTICLES ? articleUrl(ws.brandDomain, n) : `https://${ws.brandDomain}/features/${n}`, `https://${ws.brandDomain}/`, `https://${ws.brandDomain}/pricing`];
      for (const page of pages) consoleRows.push([ws.workspaceId, period, query.text, page, Math.floor(rand() * 50), 10 + Math.floor(rand() * 2000), 1 + rand() * 40, ...range, pageKey(page)]);
    });
    for (const query of untracked) {
      const page = `https://${ws.brandDomain}/${pick(['', 'login', 'docs', 'pricing'])}`;
      consoleRows.push([ws.workspaceId, period, query, page, Math.floor(rand() * 30), 5 + Math.floor(rand() * 500), 1 + rand() * 20, ...range, pageKey(page)]);
    }
  }
  await write('search_console_rows', consoleRows);
  // Every tracked query has its query_latest row (wording and current impressions); each console sum names its query.
  const queryOfText = new Map(queries.map((query) => [query.text, query.id]));
  const sums = new Map<string, Row>();
  for (const [workspaceId, period, query, , clicks, impressions] of consoleRows) {
    const sum: Row = sums.get(`${period}|${query}`) ?? [workspaceId as string, period as string, query as string, 0, 0, queryOfText.get(query as string) ?? null];
    sum[3] = (sum[3] as number) + (clicks as number);
    sum[4] = (sum[4] as number) + (impressions as number);
    sums.set(`${period}|${query}`, sum);
  }
  await write('search_console_queries', [...sums.values()]);
  const latestOfQuery = new Map<string, Row>(
    queries.map((query) => {
      const google = rankLatest.get(`${query.id}|google`);
      return [query.id, [ws.workspaceId, query.id, 0, 0, google === undefined ? 0 : 1, google?.[3] ?? null, query.text, sums.get(`current|${query.text}`)?.[4] ?? 0, start - DAY_MS, google?.[6] ?? null, '{}']];
    }),
  );
  const checksOfQuery = new Map<string, Record<string, { run: string; result: string; at: number }>>();
  for (const [, queryId, engine, run, result, at] of engineLatest.values()) {
    const row = latestOfQuery.get(queryId as string)!;
    const bit = engineMask([{ engine: engine as EngineName }]);
    if (result === 'cited' || result === 'mentioned') row[2] = (row[2] as number) | bit;
    if (result !== 'failed') row[3] = (row[3] as number) | bit;
    const checks = checksOfQuery.get(queryId as string) ?? {};
    checks[engine as string] = { run: run as string, result: result as string, at: at as number };
    checksOfQuery.set(queryId as string, checks);
  }
  for (const [queryId, checks] of checksOfQuery) latestOfQuery.get(queryId)![10] = JSON.stringify(checks);
  await write('query_latest', [...latestOfQuery.values()]);
  return { rows: counts, middle: start + (WEEKS / 2) * WEEK_MS };
}
