/** The reports that list every tracked query (rankings, Google versus AI) answer a page of rows at a time. */
export const REPORT_PAGE_DEFAULT = 100;
export const REPORT_PAGE_MAX = 500;

/** Which page of a report's rows to answer: 1-based, `limit` rows each. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** The rows to skip for a page, as the database's offset. */
export const pageOffset = ({ page, limit }: PageRequest) => (page - 1) * limit;

/** What an answer says about its page, beside its rows. */
export function pageOf({ page, limit }: PageRequest, total: number) {
  return { page, limit, total, nextPage: page * limit < total ? page + 1 : null };
}
