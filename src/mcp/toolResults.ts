import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServiceError } from '../errors.js';

// A tool's answer and its refusal as MCP results: what tools/call answers, and what a task's result is once its jobs are
// done. They keep the key order the SDK's result schema gives them, so both ways of answering (the SDK's and the plain
// fast path) send the same bytes.

export function answerResult(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** The JSON schema of errorResult's structuredContent, which a tool's outputSchema admits beside its answer. */
export const ERROR_CONTENT_SCHEMA = {
  type: 'object',
  properties: { status: { type: 'integer' }, error: { type: 'string' }, retryAfterMs: { type: 'integer' } },
  required: ['status', 'error'],
  additionalProperties: false,
};

export function errorResult(error: ServiceError): CallToolResult {
  return {
    content: [{ type: 'text', text: error.message }],
    structuredContent: { status: error.status, ...error.toBody() },
    isError: true,
  };
}
