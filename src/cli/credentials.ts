import type { Command } from 'commander';
import { systemClock } from '../clock.js';
import { OperatorError, operatorConfig } from '../operator.js';
import { report, withDatabase } from './common.js';

/** The sealer of SECRETS_KEY and SECRETS_KEY_PREVIOUS, as the service builds it. */
async function sealerFromEnvironment() {
  const { CredentialSealer } = await import('../credentials/sealed.js');
  const config = operatorConfig();
  return new CredentialSealer(config.secretsKey, config.previousSecretsKeys);
}

/** `admin rotate-signing-key` and `admin reseal-credentials`: the operator's key material. */
export function registerCredentialCommands(admin: Command): void {
  admin
    .command('rotate-signing-key')
    .description('make a new OAuth token-signing key; the old one keeps verifying the tokens it signed until they have expired')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const credentials = await sealerFromEnvironment();
      const { rotateSigningKey } = await import('../oauth/tokens.js');
      const rotated = await withDatabase(({ db }) => rotateSigningKey(db, systemClock, credentials));
      const retireAt = new Date(rotated.retireAt).toISOString();
      report(
        options.json,
        { kid: rotated.kid, retiring: rotated.retiring, retireAt },
        `new signing key ${rotated.kid}; ${rotated.retiring.length === 0 ? 'no key was signing before' : `${rotated.retiring.join(', ')} verify${rotated.retiring.length === 1 ? 'es' : ''} until ${retireAt}`}`,
      );
    });

  admin
    .command('reseal-credentials')
    .description('encrypt every stored credential again under SECRETS_KEY (opening it with SECRETS_KEY_PREVIOUS where needed); without SECRETS_KEY, store them unencrypted')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const credentials = await sealerFromEnvironment();
      const { resealCredentials } = await import('../credentials/reseal.js');
      const counts = await withDatabase(({ db }) => resealCredentials(db, credentials)).catch((error: unknown) => {
        throw new OperatorError((error as Error).message);
      });
      const lines = Object.entries(counts).map(([table, count]) => `${table}: ${count.resealed} resealed, ${count.alreadyCurrent} already current`);
      report(options.json, { sealed: credentials.sealing, ...counts }, [credentials.sealing ? 'sealed under SECRETS_KEY' : 'SECRETS_KEY is not set: stored unencrypted', ...lines].join('\n'));
    });
}
