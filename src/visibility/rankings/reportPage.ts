/** The reports that list every tracked query (rankings, Google versus AI) answer a page of rows at a time. */
export const REPORT_PAGE_DEFAULT = 100;
export const REPORT_PAGE_MAX = 500;

/** Which page of a report's rows to answer: 1-based, `limit` rows each. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** One page of rows already in the report's order, with what a caller needs to ask for the next. */
export function pageOf<T>(rows: readonly T[], { page, limit }: PageRequest) {
  const start = (page - 1) * limit;
  return { page, limit, total: rows.length, nextPage: start + limit < rows.length ? page + 1 : null, items: rows.slice(start, start + limit) };
}
