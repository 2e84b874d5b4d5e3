/**
 * Shared by the benchmark's server entries (they run as child processes of run.ts): announce the
 * address on stdout as one JSON line, and stop when the parent goes away or asks to.
 */

/** Writes the one line the parent waits for. */
export function announce(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * Runs `stop` once, on SIGTERM/SIGINT or when stdin closes (the parent holds the other end, so a parent
 * that dies, even by SIGKILL, never leaves a server running), then exits.
 */
export function stopWithParent(stop: () => Promise<void> | void): void {
  let stopping = false;
  const shutdown = (code: number) => {
    if (stopping) return;
    stopping = true;
    Promise.resolve()
      .then(stop)
      .then(
        () => process.exit(code),
        (error: unknown) => {
          process.stderr.write(`bench server: shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(0));
  process.stdin.on('end', () => shutdown(0));
  process.stdin.on('close', () => shutdown(0));
  process.stdin.resume();
}
