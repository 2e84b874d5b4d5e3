import type { AuthenticatedOperation } from '../define.js';

export const analyticsTools: readonly AuthenticatedOperation[] = [];
