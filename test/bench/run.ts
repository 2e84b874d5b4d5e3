/**
 * `npm run bench`: requests per second and p50/p99 latency, on this machine and in one run, of
 *   1. a bare express 5 hello-world JSON route (the baseline),
 *   2. GET /api/v1/brand on the real service with a valid API key,
 *   3. the MCP tools/call of get_brand in the 2025-11-25 form (POST /mcp, stateless, JSON response),
 *   4. the same call in the 2026-07-28 form (the `_meta` envelope and the Mcp-Method / Mcp-Name headers),
 * and the ratios against the aims: REST at least half the baseline's rate, each MCP form at least 60% of REST's (a
 * run that misses any exits 1).
 *
 * Each server runs in its own child process; autocannon runs here, so load generator and server do not
 * share an event loop (on a small machine they still share the cores: read the figures as ratios). After each
 * target's warm-up, the three take turns for BENCH_ROUNDS rounds, so that a drift in the machine's speed touches them
 * alike; each ratio is also printed per round.
 *
 * Nothing in the service is bypassed. Every request is authenticated and passes the rate limiter, whose
 * route cap on get_brand is 60 calls per key per minute; a 429 is cheap and would inflate the figures, so
 * each target gets its own pool of keys, sized from the measured baseline rate so that no key makes more
 * than SAFE_CALLS_PER_KEY calls, and any non-2xx answer (or, for MCP, a tool error inside a 200) fails the run.
 * Requests carry the keys as clients do, each key for a run of KEY_RUN calls in a row before the next key takes
 * over; the service trusts a key it authenticated within the last half second (src/auth/keyCache.ts), so a run
 * costs one key look-up. BENCH_KEY_RUN=1 spreads the requests over the whole pool instead: a key comes back only
 * after all the others (about a second at these rates), so every request looks its key up in the database.
 *
 * Settings (bounded): BENCH_SECONDS (default 8, per target), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (48),
 * BENCH_KEY_RUN (48), BENCH_ROUNDS (4);
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server process there (open in Chrome DevTools).
 * This part's last line of output is `bench-result {json}`. Then the command-line client's start is timed (cliBench:
 * `sightline --help` and `sightline brand get --json` against the service, one process each time), then the service's
 * cold start and memory (startup.ts), then the visibility part runs (visibility.ts: list_citations and the metric
 * reads at scale, on SQLite and PostgreSQL) and the counter part (counter.ts: the loader's size, collect throughput,
 * and the counter's reads of a site with 10 million events, on SQLite and PostgreSQL), the backlinks part, and the
 * dashboard part (dashboard.ts: every dashboard page on the visibility part's workspace at 500 queries), the changes
 * part (changes.ts: each check run's changes of a 5,000-query workspace found within 60 s, on SQLite and PostgreSQL),
 * and the apps part (apps.ts: each MCP Apps view's size, gzipped, under 200 KB);
 * BENCH_PARTS=api, cli, startup, visibility, counter, backlinks, dashboard, changes or apps (or a comma list) runs only those.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { appsBench } from './apps.js';
import { startupBench } from './startup.js';
import { setting } from './store.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');

/** The tightest limit a benchmark request meets is get_brand's route cap: 60 per key per minute. */
const ROUTE_CAP_PER_MINUTE = 60;
const SAFE_CALLS_PER_KEY = 50;
/** REST at least half the bare express rate; MCP at least 60% of REST's. */
const REST_AIM = 0.5;
const MCP_AIM = 0.6;
/** The service cannot outrun bare express; the margin covers noise between runs. */
const RATE_CEILING_MARGIN = 1.5;
const MIN_RATE_CEILING = 2000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

const SECONDS = setting('BENCH_SECONDS', 8, 1, 20);
const WARMUP_SECONDS = setting('BENCH_WARMUP_SECONDS', 2, 0, 5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 48, 1, 256);
// The pass over the pool spends up to 2 calls of each key; a run must fit in what is left.
const KEY_RUN = setting('BENCH_KEY_RUN', SAFE_CALLS_PER_KEY - 2, 1, SAFE_CALLS_PER_KEY - 2);
const ROUNDS = setting('BENCH_ROUNDS', 4, 1, 8);
// A key's window opens at its first call, in the pass before its target's warm-up; the other targets' warm-ups and
// every round of all three follow, and must fit in that minute.
if (3 * (WARMUP_SECONDS + SECONDS) >= 55) throw new Error('BENCH_SECONDS, BENCH_WARMUP_SECONDS: three warm-ups and measurements must fit in a key\'s minute');
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

// ---------------------------------------------------------------------------------------------------------
// Child processes

const children = new Set<ChildProcess>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Starts `node --import tsx <file> ...args` and resolves to the JSON object it prints on its first line. */
async function startChild(name: string, file: string, args: readonly string[] = []): Promise<{ proc: ChildProcess; info: Record<string, unknown> }> {
  const profile = CPU_PROF_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF_DIR, name)}`];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', join(HERE, file), ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  const lines = createInterface({ input: proc.stdout! });
  try {
    const line = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no address within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const settle = () => clearTimeout(timer);
      lines.once('line', (text) => {
        settle();
        resolveLine(text);
      });
      proc.once('error', (error) => {
        settle();
        reject(new Error(`${name}: could not start: ${error.message}`));
      });
      proc.once('exit', (code, signal) => {
        settle();
        reject(new Error(`${name}: exited before listening (code ${String(code)}, signal ${String(signal)})`));
      });
    });
    const info: unknown = JSON.parse(line);
    if (!isRecord(info) || typeof info.url !== 'string' || !info.url.startsWith('http://127.0.0.1:')) {
      throw new Error(`${name}: expected a JSON line with a 127.0.0.1 url, got ${line.slice(0, 200)}`);
    }
    // Anything else it prints is drained so that a full pipe never blocks it.
    lines.on('line', () => {});
    return { proc, info };
  } catch (error) {
    await stopChild(proc);
    throw error;
  }
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.stdin?.end();
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function stopAll(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping the servers\n`);
    void stopAll().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Targets and load

interface Target {
  name: 'baseline' | 'rest' | 'mcp' | 'mcp2026';
  label: string;
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Authorization rotates through these, one request after another (round-robin over all connections). */
  keys: readonly string[];
  /** A cheap check of each answer's body; failures count as mismatches. */
  verify(body: string): boolean;
}

interface Measurement {
  target: Target['name'];
  label: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
  non2xx: number;
  mismatches: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Highest per-second sample, used to size the key pools. */
  maxRps: number;
}

const MCP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_brand', arguments: {} } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MCP_2026 = '2026-07-28';
const MCP_2026_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_brand', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': MCP_2026, 'io.modelcontextprotocol/clientCapabilities': {} } },
});
const MCP_2026_HEADERS = { ...MCP_HEADERS, 'mcp-protocol-version': MCP_2026, 'mcp-method': 'tools/call', 'mcp-name': 'get_brand' };

function statusCodes(result: autocannon.Result): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) out[code] = Number(stat.count ?? 0);
  return out;
}

/** A run bounded by time, or by a number of requests (autocannon ignores the duration when given an amount). */
type Bound = { seconds: number } | { amount: number };

/**
 * Hands out the pool's keys, each for `run` requests in a row, then the next. One picker serves both timed phases, so
 * the measurement goes on with keys the warm-up did not use and no key passes its share.
 */
function keyPicker(keys: readonly string[], run: number): () => string {
  let issued = 0;
  return () => keys[Math.floor(issued++ / run) % keys.length]!;
}

async function load(target: Target, bound: Bound, nextKey: () => string): Promise<Measurement> {
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    pipelining: 1,
    ...('seconds' in bound ? { duration: bound.seconds } : { amount: bound.amount }),
    timeout: 10,
    requests: [
      {
        method: target.method,
        path: target.path,
        headers: target.headers,
        ...(target.body === undefined ? {} : { body: target.body }),
        setupRequest: (request) => {
          request.headers = { ...request.headers, authorization: `Bearer ${nextKey()}` };
          return request;
        },
      },
    ],
    verifyBody: (body) => target.verify(typeof body === 'string' ? body : String(body ?? '')),
  });
  return {
    target: target.name,
    label: target.label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: statusCodes(result),
    maxRps: result.requests.max,
  };
}

function problems(m: Measurement, phase: string): string[] {
  const out: string[] = [];
  if (m.requests === 0) out.push(`${m.label} (${phase}): no requests completed`);
  if (m.non2xx > 0) out.push(`${m.label} (${phase}): ${m.non2xx} non-2xx answers, by status ${JSON.stringify(m.statusCodes)}`);
  if (m.mismatches > 0) out.push(`${m.label} (${phase}): ${m.mismatches} answers failed the body check`);
  if (m.errors > 0) out.push(`${m.label} (${phase}): ${m.errors} connection errors (${m.timeouts} timeouts)`);
  return out;
}

interface WarmTarget {
  target: Target;
  nextKey: () => string;
  warmUp: Measurement;
}

/**
 * One pass over the key pool, then the warm-up; both must be clean. The pass makes each key's first use (which records
 * last_used_at, a write made at most once a minute per key) fall outside the measurement, as it does for a client that
 * keeps using one key.
 */
async function warmUp(target: Target): Promise<WarmTarget> {
  log(`${target.label}: one pass over ${target.keys.length} keys, warming up ${WARMUP_SECONDS} s`);
  const found: string[] = [];
  // Each autocannon connection builds one request ahead, so the pass goes a little past the pool's end.
  const pass = await load(target, { amount: target.keys.length + 2 * CONNECTIONS }, keyPicker(target.keys, 1));
  found.push(...problems(pass, 'pass over the keys'));
  const nextKey = keyPicker(target.keys, KEY_RUN);
  const warm = WARMUP_SECONDS > 0 ? await load(target, { seconds: WARMUP_SECONDS }, nextKey) : pass;
  found.push(...problems(warm, 'warm-up'));
  if (found.length > 0) throw new BenchFailure(found);
  return { target, nextKey, warmUp: warm };
}

/** Rounds' measurements of one target as one: their requests over their time, the middle p50, the worst p99. */
function combined(parts: readonly Measurement[]): Measurement {
  const first = parts[0]!;
  const sum = (pick: (m: Measurement) => number) => parts.reduce((total, m) => total + pick(m), 0);
  const p50s = parts.map((m) => m.p50).sort((a, b) => a - b);
  const statusTotals: Record<string, number> = {};
  for (const m of parts) for (const [code, count] of Object.entries(m.statusCodes)) statusTotals[code] = (statusTotals[code] ?? 0) + count;
  return {
    ...first,
    rps: sum((m) => m.requests) / sum((m) => m.seconds),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...parts.map((m) => m.p99)),
    requests: sum((m) => m.requests),
    seconds: sum((m) => m.seconds),
    non2xx: sum((m) => m.non2xx),
    mismatches: sum((m) => m.mismatches),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes: statusTotals,
    maxRps: Math.max(...parts.map((m) => m.maxRps)),
  };
}

/**
 * The targets take turns, ROUNDS times, each for its share of SECONDS, the order turning each round: a shared
 * machine's speed drifts over seconds, and measuring the three one after another made their ratios drift with it.
 * Answers each target's combined measurement and, per round, its rate.
 */
async function measureInTurns(targets: readonly WarmTarget[]): Promise<{ results: Measurement[]; roundRates: number[][] }> {
  const slice = SECONDS / ROUNDS;
  log(`measuring ${ROUNDS} rounds of ${slice.toFixed(1)} s per target, the targets taking turns, ${CONNECTIONS} connections`);
  const parts = targets.map((): Measurement[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < targets.length; turn++) {
      const index = (round + turn) % targets.length;
      const { target, nextKey } = targets[index]!;
      parts[index]!.push(await load(target, { seconds: slice }, nextKey));
    }
  }
  const found = parts.flatMap((rounds) => rounds.flatMap((m, round) => problems(m, `round ${round + 1}`)));
  if (found.length > 0) throw new BenchFailure(found);
  return { results: parts.map(combined), roundRates: parts.map((rounds) => rounds.map((m) => m.requests / m.seconds)) };
}

class BenchFailure extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** One request outside the measurement, checked in full, so a broken setup fails with a readable reason. */
async function sanityCheck(target: Target, key: string, check: (status: number, body: unknown) => string | undefined): Promise<void> {
  const response = await fetch(`${target.url}${target.path}`, {
    method: target.method,
    headers: { ...target.headers, authorization: `Bearer ${key}` },
    ...(target.body === undefined ? {} : { body: target.body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const problem = body === undefined ? 'the answer is not JSON' : check(response.status, body);
  if (problem !== undefined) throw new BenchFailure([`${target.label}: sanity check failed: ${problem}; status ${response.status}, body ${text.slice(0, 300)}`]);
  if (!target.verify(text)) throw new BenchFailure([`${target.label}: sanity check: the body check used under load rejects a good answer: ${text.slice(0, 300)}`]);
}

// ---------------------------------------------------------------------------------------------------------
// Output

function log(message: string): void {
  process.stdout.write(`bench: ${message}\n`);
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

function table(rows: readonly Measurement[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx'];
  const body = rows.map((m) => [m.label, String(Math.round(m.rps)), String(m.p50), String(m.p99), String(m.requests), String(m.non2xx)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// The run

function keyList(info: Record<string, unknown>, field: string): string[] {
  const value = info[field];
  if (!Array.isArray(value) || !value.every((k): k is string => typeof k === 'string')) throw new Error(`service: "${field}" is not a list of keys`);
  return value;
}

async function main(): Promise<void> {
  const cpuList = cpus();
  const loadBefore = loadavg()[0] ?? 0;
  log(`node ${process.version}, ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? 'unknown'}); load generator in this process`);
  if (loadBefore > cpuList.length / 2) {
    log(`warning: load average ${loadBefore.toFixed(2)} before starting; other work on this machine will skew the figures (ratios less so)`);
  }

  // 1. Baseline. The generator does the same per-request work (a rotated Authorization header, a body check)
  //    for every target, so that its own cost, on the same cores, is the same in each row.
  const baselineChild = await startChild('baseline', 'baseline-server.ts');
  const baseline: Target = {
    name: 'baseline',
    label: 'express 5 hello world',
    url: String(baselineChild.info.url),
    method: 'GET',
    path: '/',
    headers: {},
    keys: Array.from({ length: 1000 }, (_, i) => `slk_${String(i).padStart(49, '0')}`),
    verify: (body) => body === '{"hello":"world"}',
  };
  await sanityCheck(baseline, 'unused', (status, body) => (status === 200 && isRecord(body) && body.hello === 'world' ? undefined : 'expected 200 {"hello":"world"}'));
  const warmBaseline = await warmUp(baseline);

  // 2 and 3. The service, with one key pool per target.
  // Per key: at most 2 calls in the pass over the pool, then whole runs of KEY_RUN calls, at most SAFE_CALLS_PER_KEY - 2
  // in all, over the timed phases.
  const rateCeiling = Math.max(MIN_RATE_CEILING, Math.max(warmBaseline.warmUp.rps, warmBaseline.warmUp.maxRps) * RATE_CEILING_MARGIN);
  const callsPerKey = KEY_RUN * Math.floor((SAFE_CALLS_PER_KEY - 2) / KEY_RUN);
  const poolSize = Math.ceil(((WARMUP_SECONDS + SECONDS) * rateCeiling) / callsPerKey);
  log(`service: ${3 * poolSize + 1} API keys (${poolSize} per target, at most ${SAFE_CALLS_PER_KEY} calls each below ${Math.round(rateCeiling)} req/s; cap ${ROUTE_CAP_PER_MINUTE}/min)`);
  const serviceChild = await startChild('service', 'service-server.ts', [`--keys=${3 * poolSize}`]);
  const { info } = serviceChild;
  const url = String(info.url);
  const sanityKey = info.key;
  if (typeof sanityKey !== 'string') throw new Error('service: no "key" in its announcement');
  const keys = keyList(info, 'keys');
  if (keys.length !== 3 * poolSize) throw new Error(`service: expected ${3 * poolSize} keys, got ${keys.length}`);

  const rest: Target = {
    name: 'rest',
    label: 'REST GET /api/v1/brand',
    url,
    method: 'GET',
    path: '/api/v1/brand',
    headers: {},
    keys: keys.slice(0, poolSize),
    verify: (body) => body.startsWith('{"data":{'),
  };
  const mcp: Target = {
    name: 'mcp',
    label: 'MCP tools/call get_brand',
    url,
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: MCP_BODY,
    keys: keys.slice(poolSize, 2 * poolSize),
    // A refused tool call (429 from the limiter included) is a JSON-RPC result with isError inside an HTTP 200.
    verify: (body) => body.includes('"result":{') && body.includes('"structuredContent":') && !body.includes('"isError":true'),
  };
  const mcp2026: Target = { ...mcp, name: 'mcp2026', label: 'MCP 2026-07-28 tools/call get_brand', headers: MCP_2026_HEADERS, body: MCP_2026_BODY, keys: keys.slice(2 * poolSize) };

  await sanityCheck(rest, sanityKey, (status, body) => (status === 200 && isRecord(body) && isRecord(body.data) ? undefined : 'expected 200 { data: {...} }'));
  for (const target of [mcp, mcp2026]) {
    await sanityCheck(target, sanityKey, (status, body) => {
      if (status !== 200 || !isRecord(body) || !isRecord(body.result)) return 'expected 200 with a JSON-RPC result';
      if (body.result.isError === true) return 'the tool call returned an error';
      return isRecord(body.result.structuredContent) ? undefined : 'expected structuredContent';
    });
  }

  const { results, roundRates } = await measureInTurns([warmBaseline, await warmUp(rest), await warmUp(mcp), await warmUp(mcp2026)]);
  await stopChild(serviceChild.proc);
  await stopChild(baselineChild.proc);

  // Report.
  const [baselineResult, restResult, mcpResult, mcp2026Result] = results as [Measurement, Measurement, Measurement, Measurement];
  const rows = [baselineResult, restResult, mcpResult, mcp2026Result];
  const [baselineRates, restRates, mcpRates, mcp2026Rates] = roundRates as [number[], number[], number[], number[]];
  const spread = (values: number[]) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}`;
  const restRoundRatios = restRates.map((rate, i) => rate / baselineRates[i]!);
  const mcpRoundRatios = mcpRates.map((rate, i) => rate / restRates[i]!);
  const mcp2026RoundRatios = mcp2026Rates.map((rate, i) => rate / restRates[i]!);
  const restRatio = restResult.rps / baselineResult.rps;
  const mcpRatio = mcpResult.rps / restResult.rps;
  const restMet = restRatio >= REST_AIM;
  const mcpMet = mcpRatio >= MCP_AIM;
  const mcp2026Ratio = mcp2026Result.rps / restResult.rps;
  const mcp2026Met = mcp2026Ratio >= MCP_AIM;
  process.stdout.write(`\n${table(rows)}\n\n`);
  process.stdout.write(`REST / baseline  ${restRatio.toFixed(2)}  (aim >= ${REST_AIM.toFixed(2)})  ${restMet ? 'met' : 'NOT MET'}  rounds ${spread(restRoundRatios)}\n`);
  process.stdout.write(`MCP / REST       ${mcpRatio.toFixed(2)}  (aim >= ${MCP_AIM.toFixed(2)})  ${mcpMet ? 'met' : 'NOT MET'}  rounds ${spread(mcpRoundRatios)}\n`);
  process.stdout.write(`MCP 2026 / REST  ${mcp2026Ratio.toFixed(2)}  (aim >= ${MCP_AIM.toFixed(2)})  ${mcp2026Met ? 'met' : 'NOT MET'}  rounds ${spread(mcp2026RoundRatios)}\n`);
  const loadAfter = loadavg()[0] ?? 0;
  process.stdout.write(
    `every response was 200 with the expected body; ${CONNECTIONS} connections, pipelining 1, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per target in ${ROUNDS} turns, ${KEY_RUN} calls per key in a row\n`,
  );
  process.stdout.write(`load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} (includes the bench) on ${cpuList.length} CPU(s)\n\n`);

  const summary = {
    node: process.version,
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model.trim() ?? null,
    connections: CONNECTIONS,
    pipelining: 1,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    rounds: ROUNDS,
    keysPerTarget: poolSize,
    keyRun: KEY_RUN,
    loadAverage: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
    targets: Object.fromEntries(
      rows.map((m) => [m.target, { label: m.label, rps: round(m.rps), p50Ms: m.p50, p99Ms: m.p99, requests: m.requests, non2xx: m.non2xx }]),
    ),
    ratios: { restToBaseline: round(restRatio, 3), mcpToRest: round(mcpRatio, 3), mcp2026ToRest: round(mcp2026Ratio, 3) },
    roundRatios: {
      restToBaseline: restRoundRatios.map((r) => round(r, 3)),
      mcpToRest: mcpRoundRatios.map((r) => round(r, 3)),
      mcp2026ToRest: mcp2026RoundRatios.map((r) => round(r, 3)),
    },
    aims: { restToBaseline: REST_AIM, mcpToRest: MCP_AIM, mcp2026ToRest: MCP_AIM },
    met: { restToBaseline: restMet, mcpToRest: mcpMet, mcp2026ToRest: mcp2026Met },
  };
  process.stdout.write(`bench-result ${JSON.stringify(summary)}\n`);
  if (!restMet || !mcpMet || !mcp2026Met) process.exitCode = 1;
}

/**
 * BENCH_PARTS: `api` (the above), `cli` (cliBench), `startup` (startup.ts: the service's cold start and memory,
 * compiled and from sources), `visibility` (visibility.ts), `counter` (counter.ts), `backlinks` (backlinks.ts),
 * `dashboard` (dashboard.ts) and `changes` (changes.ts), each in a child process, and `apps` (apps.ts, in this one); all
 * by default.
 */
const PART_NAMES = ['api', 'cli', 'startup', 'visibility', 'counter', 'backlinks', 'dashboard', 'changes', 'apps'];
const PARTS = new Set((process.env.BENCH_PARTS ?? PART_NAMES.join(',')).split(',').map((part) => part.trim()));
for (const part of PARTS) if (!PART_NAMES.includes(part)) throw new Error(`BENCH_PARTS: a comma list of ${PART_NAMES.join(', ')}, got "${part}"`);

const CLI_RUNS = 15;
const CLI_WARMUP_RUNS = 2;
/** A person waits on every command: the client must start and answer within a second. */
const CLI_AIM_MS = 1000;

/** Runs the `sightline` binary once and answers how long the process took, start to exit. */
async function timeCli(args: readonly string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const proc = spawn(process.execPath, [join(ROOT, 'src/cli/sightline.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(proc, 'exit')) as [number | null];
  if (code !== 0) throw new BenchFailure([`sightline ${args.join(' ')} exited ${String(code)}: ${stderr.trim()}`]);
  return performance.now() - started;
}

/** The client's start-up, one process per command as a person or script runs it, against the real service. */
async function cliBench(): Promise<void> {
  const { proc, info } = await startChild('service', 'service-server.ts', ['--keys=0']);
  try {
    const env = { SIGHTLINE_URL: String(info.url), SIGHTLINE_API_KEY: String(info.key) };
    const commands: { label: string; args: string[] }[] = [
      { label: 'sightline --help', args: ['--help'] },
      { label: 'sightline brand get --json', args: ['brand', 'get', '--json'] },
    ];
    const rows: { label: string; p50: number; p90: number; max: number }[] = [];
    for (const { label, args } of commands) {
      for (let i = 0; i < CLI_WARMUP_RUNS; i++) await timeCli(args, env);
      const times: number[] = [];
      for (let i = 0; i < CLI_RUNS; i++) times.push(await timeCli(args, env));
      times.sort((a, b) => a - b);
      const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
      rows.push({ label, p50: at(0.5), p90: at(0.9), max: round(times.at(-1)!) });
    }
    log(`command-line client, ${CLI_RUNS} runs each after ${CLI_WARMUP_RUNS} warm-up runs (ms, process start to exit):`);
    for (const row of rows) log(`  ${row.label.padEnd(28)} p50 ${row.p50}  p90 ${row.p90}  max ${row.max}`);
    const met = rows.every((row) => row.p50 < CLI_AIM_MS);
    log(`aim: p50 under ${CLI_AIM_MS} ms: ${met ? 'met' : 'NOT met'}`);
    process.stdout.write(`bench-result-cli ${JSON.stringify({ runs: CLI_RUNS, rows, aimMs: CLI_AIM_MS, met })}\n`);
    if (!met) process.exitCode = 1;
  } finally {
    await stopChild(proc);
  }
}
/** A port nothing listens on, for the service starts that the startup part times one after another. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP port to listen on');
  return address.port;
}

/** The visibility and counter parts generate large databases: each gets its own process and time limit. */
async function partInChild(name: string, file: string, timeoutMinutes: number): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(HERE, file)], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
  children.add(proc);
  const timer = setTimeout(() => {
    process.stderr.write(`bench: the ${name} part did not finish within ${timeoutMinutes} minutes; stopping\n`);
    proc.kill('SIGTERM');
  }, timeoutMinutes * 60_000);
  const [code] = (await once(proc, 'exit')) as [number | null];
  clearTimeout(timer);
  children.delete(proc);
  if (code !== 0) process.exitCode = 1;
}

if (PARTS.has('api')) {
  const hardStop = setTimeout(() => {
    process.stderr.write('bench: did not finish within 150 s; stopping\n');
    void stopAll().finally(() => process.exit(1));
  }, 150_000);
  hardStop.unref();

  try {
    await main();
  } catch (error) {
    if (error instanceof BenchFailure) {
      process.stderr.write(`\nbench FAILED:\n${error.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    } else {
      process.stderr.write(`\nbench FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exitCode = 1;
  } finally {
    clearTimeout(hardStop);
    await stopAll();
  }
}
if (PARTS.has('cli')) {
  try {
    await cliBench();
  } catch (error) {
    process.stderr.write(`\nbench FAILED (cli): ${error instanceof BenchFailure ? error.problems.join('; ') : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
if (PARTS.has('startup')) {
  try {
    const rows = await startupBench(ROOT, await unusedPort(), log);
    process.stdout.write(`bench-result-startup ${JSON.stringify({ rows })}\n`);
  } catch (error) {
    process.stderr.write(`\nbench FAILED (startup): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
if (PARTS.has('visibility')) await partInChild('visibility', 'visibility.ts', 120);
if (PARTS.has('counter')) await partInChild('counter', 'counter.ts', 30);
if (PARTS.has('backlinks')) await partInChild('backlinks', 'backlinks.ts', 20);
if (PARTS.has('dashboard')) await partInChild('dashboard', 'dashboard.ts', 30);
if (PARTS.has('changes')) await partInChild('changes', 'changes.ts', 30);
if (PARTS.has('apps')) {
  const result = appsBench(log);
  process.stdout.write(`bench-result-apps ${JSON.stringify(result)}\n`);
  if (!result.met) process.exitCode = 1;
}
