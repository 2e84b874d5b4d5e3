import { listChanges } from '../changes/listChanges.js';
import type { McpDeps } from './caller.js';
import { markdownText } from './markdownText.js';

/** The changes the resource shows: enough for an agent to catch up after a week away, few enough to read whole. */
const RECENT_CHANGES = 50;

/**
 * The workspace's latest changes as Markdown, newest first, as list_changes answers them. Its text changes exactly
 * when a change is recorded, which is what a subscribed client is told.
 */
export async function recentChangesMarkdown(deps: McpDeps, workspaceId: string): Promise<string> {
  const { changes, total } = await listChanges(deps.db, workspaceId, { page: 1, limit: RECENT_CHANGES });
  const lines = changes.map((change) => {
    const about = [change.engine, change.query === null ? null : `"${markdownText(change.query)}"`].filter((part) => part !== null).join(', ');
    return `- ${change.detectedAt.slice(0, 16).replace('T', ' ')} UTC · **${change.severity}** · \`${change.kind}\` · ${markdownText(change.title)}${about === '' ? '' : ` (${about})`} · id ${change.id}`;
  });
  return [
    '# Recent changes',
    changes.length === 0
      ? 'Nothing has changed yet: changes are found after each check run and as deliveries, connections, replies and links change.'
      : `The ${changes.length} newest of ${total}, newest first. list_changes has every change with its figures (details), filters and pages.`,
    '',
    ...lines,
    '',
  ].join('\n');
}
