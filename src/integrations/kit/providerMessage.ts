const MAX_CHARS = 300;

export interface MessageOptions {
  /**
   * Puts Google's status name before its message (`RESOURCE_EXHAUSTED: Quota exceeded`): the analytics providers have
   * always shown it, the engines and Search Console never have.
   */
  googleStatus?: boolean;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value.join('; ');
  return undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The provider's own words from an error body, for the person who must act: OpenAI's `{error: {message}}`, Google's
 * `{error: {message, status}}` (its status, a name like RESOURCE_EXHAUSTED, when asked for), Cloudflare's
 * `{errors: [{message, code}]}` (all of them), Stack Exchange's `{error_message}`, `{message}` (after Webflow's `code` when it sends one,
 * Wix's `details.applicationError.description` in its place) or `{msg}` (ahead of an `error` string,
 * which beside a message is a code name: Bluesky's `{error: "InvalidRequest", message}`), `{error: "…"}`, RFC 7807's
 * title and detail, `{detail}`; else the text itself, trimmed. Capped, so a provider's HTML error page cannot flood a
 * message.
 */
export function providerMessage(body: string, options: MessageOptions = {}): string {
  let json: unknown;
  try {
    json = JSON.parse(body) as unknown;
  } catch {
    json = undefined;
  }
  const words = messageOf(record(json), options);
  return (words ?? (body.trim() || '(no message)')).slice(0, MAX_CHARS);
}

/** Cloudflare's (and GraphQL's) `errors: [{message, code}]`, every one, each with its code when it has one. */
function listedErrors(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const messages = errors.flatMap((error) => {
    const listed = record(error);
    const message = text(listed?.message);
    if (message === undefined) return [];
    const code = listed?.code;
    return [typeof code === 'number' || typeof code === 'string' ? `${message} (code ${code})` : message];
  });
  return messages.length === 0 ? undefined : messages.join('; ');
}

function messageOf(body: Record<string, unknown> | undefined, options: MessageOptions): string | undefined {
  if (body === undefined) return undefined;
  const error = record(body.error);
  if (error !== undefined) {
    const message = text(error.message);
    if (message !== undefined) return options.googleStatus === true && typeof error.status === 'string' ? `${error.status}: ${message}` : message;
  }
  const listed = listedErrors(body.errors);
  const wixDescription = text(record(record(body.details)?.applicationError)?.description);
  const message = wixDescription ?? text(body.message);
  const code = text(body.code);
  const title = text(body.title);
  const detail = text(body.detail);
  return (
    listed ??
    text(body.error_message) ??
    (message !== undefined && code !== undefined ? `${code}: ${message}` : message) ??
    text(body.msg) ??
    text(body.error) ??
    (title !== undefined && detail !== undefined ? `${title}: ${detail}` : (detail ?? title))
  );
}
