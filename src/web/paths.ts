/** A workspace page's address: its path under /w/<workspace>/ ('' is the workspace's overview). */
export function pageUrl(workspaceId: string, path: string): string {
  return path === '' ? `/w/${workspaceId}` : `/w/${workspaceId}/${path}`;
}

/** The express route of a page path, or of a path under one. */
export function pageRoute(path: string): string {
  return pageUrl(':ws', path);
}

/** The Changes page's path: alert messages and the digest link to it from outside the dashboard. */
export const CHANGES_PATH = 'changes';
