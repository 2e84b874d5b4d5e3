import type { Request } from 'express';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { isPlainObject } from '../src/shared/objects.js';

/** One JSON-RPC tools/call, as the SDK would hand it to the tools/call handler, with its arguments as sent. */
export interface PlainToolCall {
  id: string | number;
  name: string;
  arguments: unknown;
  /** 2026-07-28 (the `_meta` envelope) or an earlier version; the answer's shape differs. */
  era: 'modern' | 'legacy';
}

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments']);
const MODERN_PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION, CLIENT_CAPABILITIES, CLIENT_INFO]);
/** A name the Mcp-Name header carries as it is (other names travel base64-encoded, which the SDK decodes). */
const HEADER_SAFE_NAME = /^[\x21-\x7e]+$/;

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
  const body: unknown = req.body;
  if (!isPlainObject(body) || !hasOnlyKeys(body, REQUEST_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  if (version === MODERN_PROTOCOL_VERSION) {
    if (!hasOnlyKeys(params, MODERN_PARAMS_KEYS) || !isPlainModernCall(req, params.name, params._meta)) return undefined;
    return { id, name: params.name, arguments: params.arguments, era: 'modern' };
  }
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  if (!hasOnlyKeys(params, PARAMS_KEYS)) return undefined;
  return { id, name: params.name, arguments: params.arguments, era: 'legacy' };
}

/**
 * A 2026-07-28 call the SDK would take as sent and whose answer does not depend on what the client can do: the routing
 * headers agree with the body, the envelope holds only the version, the capabilities and a well-formed clientInfo,
 * and the client declares neither tasks nor elicitation (a task handle or a question may then be the answer).
 */
function isPlainModernCall(req: Request, name: string, meta: unknown): boolean {
  if (req.headers['mcp-method'] !== 'tools/call' || req.headers['mcp-name'] !== name || !HEADER_SAFE_NAME.test(name)) return false;
  if (!isPlainObject(meta) || !hasOnlyKeys(meta, ENVELOPE_KEYS) || meta[PROTOCOL_VERSION] !== MODERN_PROTOCOL_VERSION) return false;
  const capabilities = meta[CLIENT_CAPABILITIES];
  if (!isPlainObject(capabilities) || 'extensions' in capabilities || 'elicitation' in capabilities) return false;
  const info = meta[CLIENT_INFO];
  return info === undefined || (isPlainObject(info) && hasOnlyKeys(info, new Set(['name', 'version'])) && typeof info.name === 'string' && typeof info.version === 'string');
}
