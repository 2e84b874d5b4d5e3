import type { SearchConsolePeriod } from '../../../db/schema.js';
import { pageKey } from '../../../src/visibility/rankings/pages.js';
import { syncPeriods } from '../../../src/visibility/searchConsole/syncJob.js';
import { START_TIME } from '../../support/harness.js';

export interface ConsoleFigures {
  query: string;
  page: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** A search_console_rows row as a sync on the tests' first day stores it: the period's dates are the sync's own. */
export function consoleRow(workspaceId: string, period: SearchConsolePeriod, figures: ConsoleFigures) {
  const range = syncPeriods(START_TIME)[period];
  return { workspace_id: workspaceId, period, ...figures, page_key: pageKey(figures.page), start_date: range.startDate, end_date: range.endDate };
}
