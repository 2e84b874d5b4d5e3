import type { ServerContext } from '@modelcontextprotocol/server';

/** How long a call runs before its client hears that it is still working, and how often after that. */
export const PROGRESS_AFTER_MS = 1000;

/**
 * Runs a call and, when the client sent a progress token and the call takes longer than a moment, sends
 * `notifications/progress` once a second until it ends (the response becomes an event stream then). Sightline's calls
 * do not know how far along they are, so each notification counts the seconds and says so; work that takes minutes
 * starts a job, which the Tasks extension follows instead.
 */
export async function withProgress<T>(ctx: ServerContext, call: () => Promise<T>): Promise<T> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return call();
  let seconds = 0;
  const timer = setInterval(() => {
    seconds += 1;
    const message = `still working (${seconds} s)`;
    // A client gone away ends the exchange; a lost notification is nothing to report.
    ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: seconds, message } }).catch(() => undefined);
  }, PROGRESS_AFTER_MS);
  try {
    return await call();
  } finally {
    clearInterval(timer);
  }
}
