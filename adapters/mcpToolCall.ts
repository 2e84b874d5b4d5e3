import type { Request } from 'express';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** One JSON-RPC tools/call, as the SDK would hand it to the tools/call handler, with its arguments as sent. */
export interface PlainToolCall {
  id: string | number;
  name: string;
  arguments: unknown;
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  return Object.keys(value).every((key) => allowed.has(key));
}

/**
 * The request, when it is a single tools/call that the SDK's Streamable HTTP transport and server would take exactly as
 * sent: the transport's header checks (Accept lists both JSON and event streams, a JSON Content-Type, a supported
 * 2025-era MCP-Protocol-Version or none) and the strict JSON-RPC envelope, with params holding only `name` and optional
 * `arguments` (of any JSON kind: the caller refuses what is not an object). Anything else — initialize, tools/list,
 * notifications, batches, `_meta` or task params (so every 2026-07-28 request), a malformed message — is undefined and goes to the SDK, so every
 * refusal and edge case keeps the SDK's own answer.
 */
export function plainToolCall(req: Request): PlainToolCall | undefined {
  const { accept, 'content-type': contentType, 'mcp-protocol-version': version } = req.headers;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(contentType)) return undefined;
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  const body: unknown = req.body;
  if (!isPlainObject(body) || !hasOnlyKeys(body, REQUEST_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || !hasOnlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  return { id, name: params.name, arguments: params.arguments };
}
