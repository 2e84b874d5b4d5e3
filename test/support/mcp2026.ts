/** The protocol version of the stateless MCP requests these helpers send. */
export const MODERN = '2026-07-28';

export interface ModernAnswer {
  status: number;
  contentType: string;
  /** The body as sent: JSON, or an event stream when the call sent progress first. */
  text: string;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

export interface ModernRequestOptions {
  /** What the client declares it can do (`_meta["io.modelcontextprotocol/clientCapabilities"]`); none by default. */
  capabilities?: Record<string, unknown>;
  /** The whole `_meta` instead of the version and capabilities, for requests that break the rules. */
  meta?: Record<string, unknown>;
  /** Headers added to or replacing the ones a well-behaved client sends. */
  headers?: Record<string, string>;
}

/** Sends one 2026-07-28 request and hands back the response unread (a listen stream stays open). */
function sendModern(baseUrl: string, key: string, id: string | number, method: string, params: Record<string, unknown>, options: ModernRequestOptions): Promise<Response> {
  const named = params.name ?? params.uri ?? params.taskId;
  const meta = options.meta ?? { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {} };
  return fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof named === 'string' ? { 'mcp-name': named } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
  });
}

/**
 * One 2026-07-28 request to `/mcp` as the specification has a client send it: the `_meta` envelope in the params, the
 * Mcp-Method header and, for the methods that name something, Mcp-Name (a tool, a resource or a task).
 */
export async function modernRequest(baseUrl: string, key: string, method: string, params: Record<string, unknown> = {}, options: ModernRequestOptions = {}): Promise<ModernAnswer> {
  const response = await sendModern(baseUrl, key, 7, method, params, options);
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  // A call that sent progress answers in an event stream: its last message is the response.
  const body = contentType.includes('text/event-stream') ? lastEvent(text) : (JSON.parse(text) as ModernAnswer['body']);
  return { status: response.status, contentType, text, body };
}

function lastEvent(stream: string): ModernAnswer['body'] {
  const data = stream.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data.at(-1)!.slice('data: '.length)) as ModernAnswer['body'];
}

export interface ListenMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A listen stream read message by message, as a client without the SDK reads it. */
export class ListenStream {
  private readonly messages: ListenMessage[] = [];
  private waiting: (() => void) | undefined;
  ended = false;

  private constructor(readonly response: Response) {}

  static async open(
    baseUrl: string,
    key: string,
    notifications: Record<string, unknown>,
    capabilities: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<ListenStream> {
    const response = await sendModern(baseUrl, key, 'listen-1', 'subscriptions/listen', { notifications }, { capabilities, headers });
    const stream = new ListenStream(response);
    if (response.headers.get('content-type')?.includes('text/event-stream')) void stream.read();
    return stream;
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of this.response.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const data = buffered.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
        buffered = buffered.slice(end + 2);
        if (data !== undefined) this.messages.push(JSON.parse(data.slice('data: '.length)) as ListenMessage);
        this.waiting?.();
      }
    }
    this.ended = true;
    this.waiting?.();
  }

  /** The next message, or undefined when none came within `withinMs`. */
  async next(withinMs = 5000): Promise<ListenMessage | undefined> {
    const deadline = Date.now() + withinMs;
    while (this.messages.length === 0 && !this.ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, Math.max(deadline - Date.now(), 0));
      });
    }
    return this.messages.shift();
  }

  async close(): Promise<void> {
    await this.response.body?.cancel().catch(() => undefined);
  }
}
