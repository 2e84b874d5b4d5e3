/** The reports that list every tracked query (rankings, Google versus AI) answer a page of rows at a time. */
export const REPORT_PAGE_DEFAULT = 100;
export const REPORT_PAGE_MAX = 500;

