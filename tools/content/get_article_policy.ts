import { z } from 'zod';
import { readPolicyView } from '../../src/content/policyUpdate.js';
import { defineTool } from '../define.js';
import { policyView } from './outputs.js';

export default defineTool({
  operationId: 'get_article_policy',
  method: 'GET',
  path: '/api/v1/settings/articles',
  scope: 'manage:org',
  cap: 'plan',
  description:
    'Read the article policy: publish weekdays and UTC time, articles a day, target length, FAQ, content type, category, signing author, auto-write and auto-publish. ' +
    'Use it before update_article_policy or to explain when planned articles are scheduled.',
  annotations: { title: 'Get article policy', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: policyView,
  confirm: 'none',
  handler: (ctx) => readPolicyView(ctx.db, ctx.workspaceId),
});
