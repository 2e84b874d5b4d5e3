import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { DATAFORSEO_OK, dataForSeoEnvelope, dataForSeoTask, sendJson } from './envelope.js';
import { closeServer, readBody, startHttpsServer } from '../../../support/localServers.js';


export interface FakeOrganic {
  url: string;
  title?: string;
}

export interface FakeReference {
  url: string;
  title?: string;
  source?: string;
}

export interface FakeOverview {
  /** The overview as markdown; left out, only the sections carry text (older answers). */
  markdown?: string;
  sections?: Array<{ text: string; references?: FakeReference[] }>;
  /** The overview's own reference list; left out, only the sections carry references. */
  references?: FakeReference[];
}

/** What the fake answers to one SERP request. */
export type SerpScript =
  | { organic?: FakeOrganic[]; aiOverview?: FakeOverview }
  /** A task-level error inside an HTTP 200, the way DataForSEO reports most failures. */
  | { taskError: { code: number; message: string } }
  /** A request-level error (e.g. 40202 rate limit) inside an HTTP 200. */
  | { requestError: { code: number; message: string } }
  | { http: { status: number; body: string; headers?: Record<string, string> } }
  | { hang: true };

export interface SerpRequest {
  path: string;
  authorization: string | undefined;
  tasks: Array<Record<string, unknown>>;
}

type Engine = 'google' | 'bing';

/**
 * A local DataForSEO v3 server (https, the test CA) for the live advanced SERP endpoints of Google and Bing, speaking
 * its envelope: HTTP 200 with status_code and status_message at request and task level, HTTP 401 for bad credentials.
 * Each keyword answers from a script: the next entry per request, the last one repeating; an unknown keyword gets a
 * SERP without results. Organic lists are returned as scripted, beyond the requested depth, as a provider may.
 */
export class FakeDataForSeo {
  readonly login = 'sightline@example.com';
  readonly password = 'dfs-secret';
  readonly requests: SerpRequest[] = [];
  /** Most requests answered at the same time, for concurrency limits. */
  maxInFlight = 0;
  /** Every answer waits this long (to see requests overlap). */
  delayMs = 0;
  private inFlight = 0;
  private readonly scripts = new Map<string, SerpScript[]>();
  private readonly open = new Set<ServerResponse>();
  private change: ((answer: unknown) => unknown) | undefined;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeDataForSeo> {
    let fake: FakeDataForSeo | undefined;
    const { server, port } = await startHttpsServer((req, res) => void fake!.handle(req, res));
    fake = new FakeDataForSeo(server, `https://127.0.0.1:${port}`);
    return fake;
  }

  /** The SERP_* settings that point the service here. */
  env(): Record<string, string> {
    return { SERP_BASE_URL: this.baseUrl, SERP_LOGIN: this.login, SERP_PASSWORD: this.password };
  }

  serp(engine: Engine, keyword: string, ...scripts: SerpScript[]): void {
    this.scripts.set(`${engine}\n${keyword}`, scripts);
  }

  /** From now on, every SERP answered passes through `change` first (a field added or left out, as another API version might send). */
  changeAnswers(change: (answer: unknown) => unknown): void {
    this.change = change;
  }

  reset(): void {
    this.requests.length = 0;
    this.scripts.clear();
    this.change = undefined;
    this.maxInFlight = 0;
    this.delayMs = 0;
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const engine = /^\/v3\/serp\/(google|bing)\/organic\/live\/advanced$/.exec(req.url ?? '')?.[1] as Engine | undefined;
    if (req.method !== 'POST' || engine === undefined) {
      sendJson(res, 404, envelope(40400, 'Not Found.', []));
      return;
    }
    let tasks: Array<Record<string, unknown>>;
    try {
      tasks = JSON.parse(body.toString('utf8')) as Array<Record<string, unknown>>;
    } catch {
      sendJson(res, 200, envelope(40503, 'POST Data Is Invalid.', []));
      return;
    }
    this.requests.push({ path: req.url!, authorization: req.headers.authorization, tasks });
    const expected = `Basic ${Buffer.from(`${this.login}:${this.password}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      sendJson(res, 401, envelope(40100, 'You are not authorized to access this resource.', []));
      return;
    }
    if (!Array.isArray(tasks) || tasks.length !== 1) {
      sendJson(res, 200, envelope(40000, 'You can set only one task at a time.', []));
      return;
    }
    const task = tasks[0]!;
    const missing = ['keyword', 'location_code', 'language_code'].find((field) => task[field] === undefined);
    if (missing !== undefined) {
      sendJson(res, 200, envelope(OK, 'Ok.', [taskEnvelope(engine, task, 40501, `Invalid Field: '${missing}'.`, null)]));
      return;
    }
    const keyword = String(task.keyword);
    const queue = this.scripts.get(`${engine}\n${keyword}`) ?? [{ organic: [] }];
    const script = queue.length > 1 ? queue.shift()! : queue[0]!;
    if ('hang' in script) {
      this.open.add(res);
      return;
    }
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.inFlight--;
    if ('http' in script) {
      res.writeHead(script.http.status, { 'content-type': 'application/json', ...script.http.headers }).end(script.http.body);
    } else if ('requestError' in script) {
      sendJson(res, 200, envelope(script.requestError.code, script.requestError.message, []));
    } else if ('taskError' in script) {
      sendJson(res, 200, envelope(OK, 'Ok.', [taskEnvelope(engine, task, script.taskError.code, script.taskError.message, null)]));
    } else {
      const answer = envelope(OK, 'Ok.', [taskEnvelope(engine, task, OK, 'Ok.', [serpResult(engine, task, script)])]);
      sendJson(res, 200, this.change === undefined ? answer : this.change(answer));
    }
  }
}

const OK = DATAFORSEO_OK;

const TASK_COST = 0.0025;

function envelope(code: number, message: string, tasks: unknown[]) {
  return dataForSeoEnvelope(code, message, tasks, TASK_COST);
}

function taskEnvelope(engine: Engine, task: Record<string, unknown>, code: number, message: string, result: unknown[] | null) {
  return dataForSeoTask({
    code,
    message,
    cost: TASK_COST,
    path: ['v3', 'serp', engine, 'organic', 'live', 'advanced'],
    data: { api: 'serp', function: 'live', se: engine, se_type: 'organic', device: 'desktop', os: 'windows', ...task },
    result,
  });
}

function referenceItem(reference: FakeReference) {
  return {
    type: 'ai_overview_reference',
    source: reference.source ?? new URL(reference.url).hostname,
    domain: new URL(reference.url).hostname,
    url: reference.url,
    title: reference.title ?? null,
    text: 'A passage of the cited page.',
  };
}

function serpResult(engine: Engine, task: Record<string, unknown>, script: { organic?: FakeOrganic[]; aiOverview?: FakeOverview }) {
  const items: Array<Record<string, unknown>> = [];
  const organic = script.organic ?? [];
  if (script.aiOverview !== undefined) {
    const overview = script.aiOverview;
    items.push({
      type: 'ai_overview',
      rank_group: 1,
      position: 'left',
      xpath: '/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[1]',
      asynchronous_ai_overview: true,
      markdown: overview.markdown ?? null,
      items: (overview.sections ?? []).map((section) => ({
        type: 'ai_overview_element',
        position: 'left',
        title: null,
        text: section.text,
        markdown: null,
        references: section.references?.map(referenceItem) ?? null,
        images: null,
        links: null,
      })),
      references: overview.references?.map(referenceItem) ?? null,
    });
  }
  organic.forEach((result, index) => {
    items.push({
      type: 'organic',
      rank_group: index + 1,
      position: 'left',
      xpath: `/html[1]/body[1]/div[3]/div[1]/div[13]/div[${index + 2}]`,
      domain: new URL(result.url).hostname,
      title: result.title ?? `Result ${index + 1}`,
      url: result.url,
      breadcrumb: result.url,
      is_image: false,
      is_video: false,
      is_featured_snippet: false,
      is_malicious: false,
      description: 'A description of the page.',
      amp_version: false,
      rating: null,
      highlighted: [],
      links: null,
      about_this_result: null,
      timestamp: null,
    });
    // Other SERP features sit between organic results and count in rank_absolute, not in rank_group.
    if (index === 2) items.push({ type: 'people_also_ask', rank_group: 1, position: 'left', items: [{ type: 'people_also_ask_element', title: 'A related question?' }] });
  });
  items.push({ type: 'related_searches', rank_group: 1, position: 'left', items: ['a related search'] });
  items.forEach((item, index) => (item.rank_absolute = index + 1));
  return {
    keyword: task.keyword,
    type: 'organic',
    se_domain: engine === 'google' ? 'google.com' : 'bing.com',
    location_code: task.location_code,
    language_code: task.language_code,
    check_url: `https://www.${engine}.com/search?q=${encodeURIComponent(String(task.keyword))}`,
    datetime: '2026-11-21 09:00:03 +00:00',
    spell: null,
    refinement_chips: null,
    item_types: [...new Set(items.map((item) => item.type))],
    se_results_count: organic.length * 1000,
    items_count: items.length,
    items,
  };
}
