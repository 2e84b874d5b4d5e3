/**
 * Functions of src/ that migrations use, copied as they were when those migrations were written: a migration must do
 * on a fresh database exactly what it did when it first ran, whatever src/ does by then. Never change one here; when a
 * later migration needs a newer version, add it beside the old one under a name of its own.
 */

/** src/visibility/rankings/pages.ts pageKey, for migrations 0014, 0015 and 0021. */
export function pageKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.hostname.toLowerCase().replace(/^www\./, '')}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
}
