/** Which page of a list's rows to answer: 1-based, `limit` rows each. */
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
