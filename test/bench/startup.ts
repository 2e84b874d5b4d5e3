/**
 * The `startup` part of `npm run bench`: how long the service takes from process start until /healthz answers, and
 * how much memory it holds then and after a burst of requests, compiled (`node dist/src/main.js`, what `npm start`
 * and the image run) and from the TypeScript sources through tsx (`npm run dev`). Each start uses a database that a
 * first start has already migrated and bootstrapped, as a restart does.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const RUNS = 5;
const LOAD_SECONDS = 3;

interface Variant {
  label: string;
  args: string[];
}

export interface StartupRow {
  label: string;
  startMs: { p50: number; min: number; max: number };
  rssMbAfterStart: number;
  rssMbAfterLoad: number;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

async function untilHealthy(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer /healthz in time`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startOnce(root: string, variant: Variant, env: Record<string, string>, port: number, withLoad: boolean) {
  const started = performance.now();
  const proc = spawn(process.execPath, variant.args, { cwd: root, env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(url, Date.now() + 60_000);
    const startMs = performance.now() - started;
    const afterStart = rssMb(proc.pid!);
    let afterLoad = afterStart;
    if (withLoad) {
      // The OpenAPI document and the health route need no key: a burst of real responses, no limiter in the way.
      await autocannon({ url, connections: 16, duration: LOAD_SECONDS, requests: [{ method: 'GET', path: '/api/v1/openapi.json' }, { method: 'GET', path: '/healthz' }] });
      afterLoad = rssMb(proc.pid!);
    }
    return { startMs, afterStart, afterLoad };
  } finally {
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    await exited;
  }
}

export async function startupBench(root: string, port: number, log: (line: string) => void): Promise<StartupRow[]> {
  const built = spawn(process.execPath, ['-e', "import('./src/build.mjs').then((b) => process.exit(b.buildIsCurrent() ? 0 : 1))"], { cwd: root, stdio: 'ignore' });
  const [current] = (await once(built, 'exit')) as [number | null];
  if (current !== 0) {
    log('startup: building dist/ first');
    execFileSync(process.execPath, ['src/build.mjs'], { cwd: root, stdio: 'ignore' });
  }
  const variants: Variant[] = [
    { label: 'compiled: node dist/src/main.js', args: ['dist/src/main.js'] },
    { label: 'sources: node --import tsx src/main.ts', args: ['--import', 'tsx', 'src/main.ts'] },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'sightline-startup-'));
  // No balancer polls these instances: each stop ends at once instead of accepting for the readiness delay.
  const env = { DATABASE_URL: join(dir, 'sightline.db'), HOST: '127.0.0.1', SHUTDOWN_READINESS_DELAY_MS: '0' };
  try {
    // The first start migrates and bootstraps; the timed ones find the database ready.
    await startOnce(root, variants[0]!, env, port, false);
    const rows: StartupRow[] = [];
    for (const variant of variants) {
      const times: number[] = [];
      let memory = { afterStart: 0, afterLoad: 0 };
      for (let run = 0; run < RUNS; run++) {
        const result = await startOnce(root, variant, env, port, run === RUNS - 1);
        times.push(result.startMs);
        if (run === RUNS - 1) memory = result;
      }
      times.sort((a, b) => a - b);
      rows.push({
        label: variant.label,
        startMs: { p50: Math.round(times[Math.floor(times.length / 2)]!), min: Math.round(times[0]!), max: Math.round(times.at(-1)!) },
        rssMbAfterStart: memory.afterStart,
        rssMbAfterLoad: memory.afterLoad,
      });
    }
    log(`service start, ${RUNS} runs each (process start until /healthz answers), and resident memory:`);
    for (const row of rows) {
      log(`  ${row.label.padEnd(40)} p50 ${row.startMs.p50} ms (${row.startMs.min}–${row.startMs.max})  RSS ${row.rssMbAfterStart} MB after start, ${row.rssMbAfterLoad} MB after ${LOAD_SECONDS} s of requests`);
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
