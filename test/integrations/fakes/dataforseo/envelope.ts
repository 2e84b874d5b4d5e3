// DataForSEO's v3 answer around its tasks, shared by the fakes of its SERP and backlinks APIs: it answers HTTP 200 for
// most failures and says what happened in status_code, first for the request, then per task.
import type { ServerResponse } from 'node:http';

export const DATAFORSEO_OK = 20000;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The request's envelope; `cost` is what one successful task costs on that API, in USD. */
export function dataForSeoEnvelope(code: number, message: string, tasks: unknown[], cost: number) {
  return {
    version: '0.1.20251117',
    status_code: code,
    status_message: message,
    time: '0.4107 sec.',
    cost: code === DATAFORSEO_OK ? cost * tasks.length : 0,
    tasks_count: tasks.length,
    tasks_error: tasks.filter((t) => (t as { status_code: number }).status_code !== DATAFORSEO_OK).length,
    tasks,
  };
}

/** One task of the answer: its status, the endpoint's path and the task's own fields echoed as `data`, and its result. */
export function dataForSeoTask(task: { code: number; message: string; cost: number; path: string[]; data: Record<string, unknown>; result: unknown[] | null }) {
  return {
    id: '11261702-1535-0419-0000-b2f3a6c4d7e1',
    status_code: task.code,
    status_message: task.message,
    time: '0.3512 sec.',
    cost: task.code === DATAFORSEO_OK ? task.cost : 0,
    result_count: task.result?.length ?? 0,
    path: task.path,
    data: task.data,
    result: task.result,
  };
}
