import { afterAll, describe, expect, it } from 'vitest';
import { OutboundError, SafeFetcher } from '../../src/outbound/safeFetch.js';
import { MailConnectionError, MailSetupError, resolveMailHost } from '../../src/outreach/mailHosts.js';

/**
 * The outbound guard as an attacker meets it: every way of writing an address inside the network, as a URL host (the
 * SSRF-safe fetcher) and as a workspace's mail host (SMTP and IMAP), with the same verdict on both.
 */
const fetcher = new SafeFetcher({ allowPrivateAddresses: false });
afterAll(() => fetcher.close());

const strictMail = { allowInsecure: false, allowPrivateHosts: false, imapPollMs: 300_000 };
const RULE = '(private, loopback, link-local and reserved ranges and IPv4 embedded in IPv6 are refused; ALLOW_PRIVATE_TARGETS allows them)';

/** [what it is, the host as written in a URL] */
const refusedLiterals: [string, string][] = [
  ['IPv4-compatible, dotted', '[::127.0.0.1]'],
  ['IPv4-compatible, hex', '[::7f00:1]'],
  ['IPv4-compatible, even with a public address', '[::808:808]'],
  ['IPv4-mapped loopback', '[::ffff:7f00:1]'],
  ['IPv4-mapped metadata address', '[::ffff:169.254.169.254]'],
  ['SIIT (IPv4-translated)', '[::ffff:0:7f00:1]'],
  ['NAT64 well-known prefix, loopback', '[64:ff9b::7f00:1]'],
  ['NAT64 well-known prefix, private', '[64:ff9b::a00:1]'],
  ['NAT64 local-use prefix, even with a public address', '[64:ff9b:1::808:808]'],
  ['6to4 of loopback', '[2002:7f00:1::]'],
  ['6to4, even of a public address', '[2002:808:808::1]'],
  ['Teredo', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]'],
  ['IPv6 loopback', '[::1]'],
  ['IPv6 unspecified', '[::]'],
  ['IPv6 link-local', '[fe80::1]'],
  ['IPv6 unique-local', '[fc00::1]'],
  ['IPv6 multicast', '[ff02::1]'],
  ['IPv6 documentation', '[2001:db8::1]'],
  ['IPv6 outside global unicast', '[4000::1]'],
  ['IPv4 as one number', '2130706433'],
  ['IPv4 in hex, two parts', '0x7f.1'],
  ['IPv4 in two parts', '127.1'],
  ['IPv4 unspecified', '0.0.0.0'],
  ['IPv4 link-local (cloud metadata)', '169.254.169.254'],
  ['IPv4 private', '10.0.0.1'],
  ['IPv4 carrier-grade NAT', '100.64.0.1'],
];

describe('the SSRF-safe fetcher refuses every address inside the network before connecting', () => {
  it.each(refusedLiterals)('%s: %s', async (_what, host) => {
    const url = new URL(`https://${host}/x`);
    const expected = `${url.href} is not a public address ${RULE}`;
    expect(() => fetcher.check(url)).toThrow(new OutboundError(expected));
    await expect(fetcher.request(url)).rejects.toThrow(expected);
  });

  it.each([
    ['public IPv4', '8.8.8.8'],
    ['public IPv6', '[2606:4700:4700::1111]'],
    ['IPv4-mapped public address (the socket connects to 8.8.8.8)', '[::ffff:808:808]'],
    ['NAT64 well-known prefix with a public address (IPv6-only hosts behind DNS64)', '[64:ff9b::808:808]'],
  ])('lets %s through: %s', (_what, host) => {
    expect(() => fetcher.check(new URL(`https://${host}/x`))).not.toThrow();
  });

  it('refuses a name resolving inside, naming the rule and not the address', async () => {
    const refusal = fetcher.request(new URL('https://localhost:9/x'));
    await expect(refusal).rejects.toThrow(new OutboundError(`localhost resolves to an address that is not public ${RULE}`));
  });

  it('says of a name that does not resolve no more than its name', async () => {
    await expect(fetcher.request(new URL('https://nothing.invalid/x'))).rejects.toThrow(/^https:\/\/nothing\.invalid\/x: getaddrinfo (ENOTFOUND|EAI_AGAIN) nothing\.invalid$/);
  });

  it('refuses plain http and credentials in the URL', async () => {
    await expect(fetcher.json(new URL('http://example.com/x'))).rejects.toThrow(/only https/);
    await expect(fetcher.json(new URL('https://user:pw@example.com/x'))).rejects.toThrow(/credentials/);
  });
});

describe('a mail host is held to the same rule', () => {
  // A mail host is written as it is configured: IPv6 without brackets, IPv4 forms the URL parser would have normalised as they are.
  it.each(refusedLiterals)('%s: %s', async (_what, written) => {
    const host = written.replace(/^\[|\]$/g, '');
    const literal = host.includes(':') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
    const refusal = resolveMailHost(strictMail, host);
    // A form that is not an IP address literal (2130706433, 0x7f.1, 127.1) is a name: the resolver reads it as 127.0.0.1.
    await expect(refusal).rejects.toThrow(
      new MailSetupError(`${host} ${literal ? 'is not a public address' : 'resolves to an address that is not public'} ${RULE}; mail servers must be public`),
    );
  });

  it('refuses a name resolving inside, naming the rule and not the address', async () => {
    await expect(resolveMailHost(strictMail, 'localhost')).rejects.toThrow(new MailSetupError(`localhost resolves to an address that is not public ${RULE}; mail servers must be public`));
  });

  it('says of a name that does not resolve no more than its name', async () => {
    await expect(resolveMailHost(strictMail, 'nothing.invalid')).rejects.toThrow(MailConnectionError);
    await expect(resolveMailHost(strictMail, 'nothing.invalid')).rejects.toThrow(/^nothing\.invalid does not resolve: getaddrinfo (ENOTFOUND|EAI_AGAIN) nothing\.invalid$/);
  });

  it('connects to a public address, and to a private one when ALLOW_PRIVATE_TARGETS allows it', async () => {
    expect(await resolveMailHost(strictMail, '::ffff:8.8.8.8')).toEqual({ address: '::ffff:8.8.8.8', sni: {} });
    expect(await resolveMailHost({ ...strictMail, allowPrivateHosts: true }, '::7f00:1')).toEqual({ address: '::7f00:1', sni: {} });
  });
});
