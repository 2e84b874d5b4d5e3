import type { AuthenticatedOperation } from '../define.js';

export const visibilityTools: readonly AuthenticatedOperation[] = [];
