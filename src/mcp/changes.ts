import type { McpCaller, McpDeps } from './caller.js';
import { resourceListMark, resourceLookIntervalMs, resourceMark } from './resources.js';
import { readTask, type TaskWithOutcome } from './tasks.js';

// What one subscriptions/listen stream watches, and what changed since it last looked. Everything is read from the
// database, so a stream on one instance hears of a change made through any other, and a task started elsewhere.

/** What a client asked to hear about, as far as this server honours it. */
export interface Watched {
  resourcesListChanged: boolean;
  resourceSubscriptions: readonly string[];
  taskIds: readonly string[];
}

export type Change =
  | { kind: 'resources_list_changed' }
  | { kind: 'resource_updated'; uri: string }
  | { kind: 'task'; task: TaskWithOutcome };

const LIST_KEY = 'list';

/**
 * The first look only takes each thing's fingerprint; every later look reports what differs from the one before. A
 * task is reported on each change of its status or message (and at the first look if it has already ended), and
 * forgotten once it has ended.
 */
export class ChangeWatch {
  private readonly marks = new Map<string, string>();
  private readonly lookedAt = new Map<string, number>();
  private readonly openTasks: Set<string>;

  constructor(
    private readonly deps: McpDeps,
    private readonly caller: McpCaller,
    private readonly watched: Watched,
  ) {
    this.openTasks = new Set(watched.taskIds);
  }

  async look(): Promise<Change[]> {
    const changes: Change[] = [];
    if (this.watched.resourcesListChanged && this.moved(LIST_KEY, await resourceListMark(this.deps, this.caller))) {
      changes.push({ kind: 'resources_list_changed' });
    }
    const now = Date.now();
    for (const uri of this.watched.resourceSubscriptions) {
      const key = `resource ${uri}`;
      // Real time, not the service clock: this paces reads, it decides nothing about the data.
      if (now - (this.lookedAt.get(key) ?? -Infinity) < resourceLookIntervalMs(uri)) continue;
      this.lookedAt.set(key, now);
      const mark = await resourceMark(this.deps, this.caller, uri);
      if (mark !== undefined && this.moved(key, mark)) changes.push({ kind: 'resource_updated', uri });
    }
    const owner = { workspaceId: this.caller.principal.workspaceId, credentialId: this.caller.principal.credentialId };
    for (const taskId of this.openTasks) {
      // Unknown, expired and other callers' tasks read alike: never reported.
      const task = await readTask(this.deps.db, this.deps.clock, owner, taskId);
      if (task === undefined) continue;
      const key = `task ${taskId}`;
      // A task that ended before the stream's first look is told at once: a client waiting for the word would wait forever.
      const endedUnseen = !this.marks.has(key) && task.status !== 'working';
      if (this.moved(key, JSON.stringify([task.status, task.statusMessage ?? null])) || endedUnseen) changes.push({ kind: 'task', task });
      if (task.status !== 'working') this.openTasks.delete(taskId);
    }
    return changes;
  }

  /** Records the mark; true when there was one before and it differs. */
  private moved(key: string, mark: string): boolean {
    const before = this.marks.get(key);
    this.marks.set(key, mark);
    return before !== undefined && before !== mark;
  }
}
