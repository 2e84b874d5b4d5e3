import { z } from 'zod';
import { describeCaller } from '../../src/caller/describeCaller.js';
import { defineTool } from '../define.js';
import { isoTime, planLimits } from '../fields.js';

export default defineTool({
  operationId: 'get_caller',
  method: 'GET',
  path: '/api/v1/caller',
  scope: 'any',
  cap: 'plan',
  description:
    'Who is calling: the workspace this credential acts in, the API key or OAuth client behind it, its scopes, and the plan with its limits. ' +
    'Any valid key or token may call it; use it to learn which tools are open to you instead of probing.',
  annotations: { title: 'Get caller', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    workspace: z.object({ id: z.string(), name: z.string(), websiteUrl: z.string() }),
    via: z.enum(['api_key', 'oauth', 'dashboard']),
    apiKey: z.object({ id: z.string(), name: z.string(), prefix: z.string(), createdAt: isoTime() }).nullable().describe('The key, when the credential is one.'),
    oauthClient: z
      .object({ clientId: z.string(), name: z.string().nullable(), authorizedAt: isoTime() })
      .nullable()
      .describe('The client the user authorized, when the credential is an OAuth token.'),
    user: z.object({ id: z.string(), email: z.string() }).nullable().describe('The person the credential acts for; null for a workspace key.'),
    scopes: z.array(z.string()),
    plan: z.object({
      name: z.string(),
      limits: planLimits,
    }),
  }),
  confirm: 'none',
  handler: async (ctx) => {
    if (ctx.credential === null) throw new Error('get_caller describes a live call; an approval never replays it');
    return describeCaller(ctx.db, ctx.credential);
  },
});
