import type { Operation } from '../define.js';
import listConnectedApps from './list_connected_apps.js';
import revokeConnectedApp from './revoke_connected_app.js';
import updateWorkspaceSettings from './update_workspace_settings.js';

export const workspaceTools: Operation[] = [updateWorkspaceSettings, listConnectedApps, revokeConnectedApp];
