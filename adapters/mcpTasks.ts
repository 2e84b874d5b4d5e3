import {
  CancelTaskResultV2Schema,
  GetTaskRequestV2Schema,
  GetTaskResultV2Schema,
  hasTaskClientCapabilityV2,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/clock.js';
import { planOnly, spendCall } from '../src/mcp/caller.js';
import { cancelTask, readTask, taskExists } from '../src/mcp/tasks.js';
import type { Pipeline } from '../src/pipeline/pipeline.js';
import type { Principal } from '../src/auth/principal.js';

// The Tasks extension's three methods (tasks/get, tasks/update, tasks/cancel) on a per-request server: they only
// translate between the wire and src/mcp/tasks.ts, which holds the tasks in the database.

/** What a server advertises (in server/discover) so that clients know it may answer tools/call with a task. */
export const TASKS_CAPABILITY = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };

/**
 * Whether this request's client declared the extension (in `_meta["io.modelcontextprotocol/clientCapabilities"]`). A
 * client that did not must get neither a task nor an answer to tasks/*; legacy-era requests never carry the declaration.
 */
export function declaresTasks(ctx: ServerContext): boolean {
  return hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} });
}

/** The params of all three methods as the handlers see them: `{ taskId }`. */
const TaskIdParams = GetTaskRequestV2Schema.shape.params;

export interface TaskDeps {
  db: Kysely<Database>;
  clock: Clock;
  pipeline: Pick<Pipeline, 'consume'>;
}

/**
 * Registers tasks/get, tasks/update and tasks/cancel for the authenticated caller (the owner of the tasks it may see).
 * Each checks the declaration first, then spends a point of the caller's plan limit, as get_job does: polling a task
 * costs what polling its job costs, and never the cap of the tool that started it.
 */
export function registerTaskMethods(server: Server, deps: TaskDeps, owner: Principal): void {
  const { db, clock } = deps;
  const admit = (ctx: ServerContext, method: string) => {
    requireDeclaration(ctx);
    return spendCall(deps.pipeline, owner, planOnly(method));
  };

  server.setRequestHandler('tasks/get', { params: TaskIdParams, result: GetTaskResultV2Schema }, async ({ taskId }, ctx) => {
    await admit(ctx, 'tasks/get');
    const task = await readTask(db, clock, owner, taskId);
    if (task === undefined) throw taskNotFound();
    return { ...task, resultType: 'complete' as const };
  });

  // No Sightline job asks for input mid-way, so responses have no outstanding request to answer: the extension has
  // such responses ignored, and the update acknowledged. (The SDK lifts `inputResponses` out of the params before they
  // are checked, as for a multi-round-trip retry, so only the task id is left to check.)
  server.setRequestHandler('tasks/update', { params: TaskIdParams, result: UpdateTaskResultV2Schema }, async ({ taskId }, ctx) => {
    await admit(ctx, 'tasks/update');
    if (!(await taskExists(db, clock, owner, taskId))) throw taskNotFound();
    return { resultType: 'complete' as const };
  });

  server.setRequestHandler('tasks/cancel', { params: TaskIdParams, result: CancelTaskResultV2Schema }, async ({ taskId }, ctx) => {
    await admit(ctx, 'tasks/cancel');
    if (!(await cancelTask(db, clock, owner, taskId))) throw taskNotFound();
    return { resultType: 'complete' as const };
  });
}

function requireDeclaration(ctx: ServerContext): void {
  if (!declaresTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: TASKS_CAPABILITY }, `Missing required client capability: ${TASKS_EXTENSION_ID_V2}`);
}

// Unknown, expired, another workspace's and another credential's tasks alike: one answer, nothing to tell them apart.
function taskNotFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task not found');
}
