const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a request failed by running out of time: an AbortSignal timeout (fetch wraps it as the cause) or undici's own. */
export function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === 'TimeoutError' || (typeof code === 'string' && UNDICI_TIMEOUTS.has(code)) || (error.cause instanceof Error && error.cause.name === 'TimeoutError');
}

/** Why a request failed, for a message: fetch and undici put the network's reason (ECONNREFUSED...) in the cause. */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
