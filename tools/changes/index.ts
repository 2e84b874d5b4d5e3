import type { AuthenticatedOperation } from '../define.js';
import addAlertChannel from './add_alert_channel.js';
import listAlertChannels from './list_alert_channels.js';
import listAlertRules from './list_alert_rules.js';
import getDigest from './get_digest.js';
import listChanges from './list_changes.js';
import removeAlertChannel from './remove_alert_channel.js';
import sendTestAlert from './send_test_alert.js';
import updateAlertRule from './update_alert_rule.js';
import updateAlertSettings from './update_alert_settings.js';

export const changesTools: readonly AuthenticatedOperation[] = [
  listChanges,
  getDigest,
  listAlertRules,
  updateAlertRule,
  updateAlertSettings,
  listAlertChannels,
  addAlertChannel,
  removeAlertChannel,
  sendTestAlert,
];
