import type { AuthenticatedOperation } from '../define.js';

export const contentTools: readonly AuthenticatedOperation[] = [];
