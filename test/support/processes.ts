import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ROOT } from '../../src/exports/artifacts.js';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Node itself with tsx's loader, not the tsx wrapper: a signal sent to the child reaches the service, so a SIGKILL
// really kills it (the wrapper would die and leave the service running as an orphan).
const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

/** Runs a project entry point (e.g. src/cli/main.ts) as a real process, as `npm run cli` does. */
export async function runEntry(entry: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return spawnEntry(entry, args, env).result;
}

/** Starts a project entry point as a real process: the child, and its exit code and output once it has ended. */
export function spawnEntry(entry: string, args: readonly string[], env: Record<string, string>): { child: ChildProcess; result: Promise<RunResult> } {
  const child = spawn(NODE_WITH_TSX[0], [...NODE_WITH_TSX.slice(1), entry, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = (once(child, 'close') as Promise<[number | null]>).then(([code]) => ({ code, stdout, stderr }));
  return { child, result };
}

/** Starts a long-running entry point and resolves once `ready` matches its output. */
export async function startEntry(entry: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(NODE_WITH_TSX[0], [...NODE_WITH_TSX.slice(1), entry], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not become ready:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
  return { child, output: () => output };
}
