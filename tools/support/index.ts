import type { Operation } from '../define.js';
import sendSupportMessage from './send_support_message.js';

export const supportTools: Operation[] = [sendSupportMessage];
