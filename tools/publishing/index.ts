import type { AuthenticatedOperation } from '../define.js';

export const publishingTools: readonly AuthenticatedOperation[] = [];
