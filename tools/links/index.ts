import type { AuthenticatedOperation } from '../define.js';

export const linksTools: readonly AuthenticatedOperation[] = [];
