import type { JsonObject } from '../shared/objects.js';

/**
 * Long reports as a person reads them at a terminal: what needs attention, and counts for the rest. `--full` (and
 * `--json`, which always prints the answer as REST returns it) gives every row.
 */
export const SUMMARIES: Readonly<Record<string, (data: JsonObject) => JsonObject>> = {
  get_crawler_access: crawlerAccessSummary,
};

interface CrawlerRow {
  token: string;
  operator: string | null;
  category: string;
  robotsAllowed: boolean;
  homeStatus: number | null;
  homeError: string | null;
  reachable: boolean;
}

const isCrawlerRow = (value: unknown): value is CrawlerRow =>
  typeof value === 'object' && value !== null && typeof (value as CrawlerRow).token === 'string' && typeof (value as CrawlerRow).category === 'string';

/** About 160 crawlers, nearly all alike: the ones refused (by robots.txt or by the server) by name, the others counted per category. */
function crawlerAccessSummary(data: JsonObject): JsonObject {
  const { crawlers, ...report } = data;
  const rows = Array.isArray(crawlers) ? crawlers.filter(isCrawlerRow) : [];
  const categories = [...new Set(rows.map((row) => row.category))];
  const refused = rows.filter((row) => !row.robotsAllowed || !row.reachable);
  return {
    ...report,
    byCategory: categories.map((category) => {
      const members = rows.filter((row) => row.category === category);
      return {
        category,
        crawlers: members.length,
        robotsAllowed: members.filter((row) => row.robotsAllowed).length,
        reachable: members.filter((row) => row.reachable).length,
      };
    }),
    refused: refused.map(({ token, operator, category, robotsAllowed, homeStatus, homeError }) => ({ token, operator, category, robotsAllowed, homeStatus, homeError })),
  };
}
