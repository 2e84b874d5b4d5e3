import type { NotificationMailerConstructor } from '../../notifications/mailer.js';
import { declareProvider, readValue, setting, wholeNumber, type Environment } from '../kit/declaration.js';
import { OperatorSmtpMailer, type OperatorSmtpSettings } from './mailer.js';

// A bare address or `Name <address>`: what nodemailer's From takes and people see.
const FROM = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

function fromUrl(value: string): Pick<OperatorSmtpSettings, 'host' | 'port' | 'secure' | 'user' | 'password'> {
  if (!URL.canParse(value)) throw new Error('SMTP_URL: must be a URL such as smtp://user:password@smtp.example.com:587 or smtps://…:465');
  const url = new URL(value);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL: must start with smtp:// (STARTTLS) or smtps:// (TLS from the first byte)');
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    user: url.username === '' ? undefined : decodeURIComponent(url.username),
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
  };
}

/**
 * The operator's SMTP server, which sends the weekly digest and alert mail. SMTP_URL, or SMTP_HOST with the usual
 * companions; MAIL_FROM is required with either.
 */
export const OPERATOR_SMTP = declareProvider({
  id: 'smtp',
  family: 'notification mail',
  label: 'Mail from Sightline',
  turnedOnBy: ['SMTP_URL', 'SMTP_HOST'],
  settings: [
    {
      names: ['SMTP_URL'],
      default: '—',
      meaning:
        'The SMTP server that sends the weekly digest and alert mail, as one URL: `smtp://user:password@host:587` (STARTTLS, required unless `MAIL_ALLOW_INSECURE=1`) or `smtps://…:465` (TLS from the first byte); user and password percent-encoded. Unset (and no `SMTP_HOST`): no mail from Sightline; digests and mail alerts are refused naming these settings',
      secrets: ['SMTP_URL'],
    },
    {
      names: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURE', 'SMTP_USER', 'SMTP_PASSWORD'],
      default: '—, `587`, `0`, —, —',
      meaning: 'The same server as separate settings, in place of `SMTP_URL`: `SMTP_SECURE=1` for TLS from the first byte (port 465)',
      secrets: ['SMTP_PASSWORD'],
    },
    {
      names: ['MAIL_FROM'],
      default: '—',
      meaning: 'The sender of Sightline\u2019s mail, `Sightline <alerts@example.com>` or a bare address; required with `SMTP_URL` or `SMTP_HOST` (an address of a domain whose SPF and DKIM the server signs for)',
    },
  ],
  create: ((settings) => new OperatorSmtpMailer(settings)) satisfies NotificationMailerConstructor<OperatorSmtpSettings>,
  read(env: Environment): OperatorSmtpSettings | undefined {
    const url = setting(env, 'SMTP_URL');
    const host = setting(env, 'SMTP_HOST');
    if (url !== undefined && host !== undefined) throw new Error('SMTP_URL and SMTP_HOST: set one of them, not both');
    if (url === undefined && host === undefined) {
      for (const name of ['SMTP_PORT', 'SMTP_SECURE', 'SMTP_USER', 'SMTP_PASSWORD', 'MAIL_FROM']) {
        if (setting(env, name) !== undefined) throw new Error(`${name}: set SMTP_URL or SMTP_HOST too, or neither`);
      }
      return undefined;
    }
    const from = setting(env, 'MAIL_FROM');
    if (from === undefined) throw new Error('MAIL_FROM: required with SMTP_URL or SMTP_HOST (the sender of the digest and alert mail)');
    if (!FROM.test(from.trim())) throw new Error(`MAIL_FROM: must be an address or "Name <address>", got "${from}"`);
    const secure = setting(env, 'SMTP_SECURE') === '1';
    const server =
      url !== undefined
        ? fromUrl(url)
        : {
            host: host!,
            port: readValue(env, 'SMTP_PORT', wholeNumber(1, 65535), secure ? '465' : '587'),
            secure,
            user: setting(env, 'SMTP_USER'),
            password: setting(env, 'SMTP_PASSWORD'),
          };
    return { ...server, from: from.trim(), allowInsecure: env.MAIL_ALLOW_INSECURE === '1' };
  },
});
