import type { Operation } from '../define.js';
import getBilling from './get_billing.js';

export const billingTools: Operation[] = [getBilling];
