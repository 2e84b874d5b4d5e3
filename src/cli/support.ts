import type { Command } from 'commander';

/** `admin support …`: filled in with the support domain. */
export function registerSupportCommands(admin: Command): void {
  admin.command('support').description('support messages filed by workspaces');
}
