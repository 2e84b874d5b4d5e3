import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/cli/catalogue.js';
import { CliError, EXIT } from '../../src/cli/client.js';
import { deviceLogin } from '../../src/cli/login.js';
import { DEFAULT_SERVER, normaliseServer, ProfileStore, resolveConnection, type Profile } from '../../src/cli/profiles.js';
import { decideDevice } from '../support/device.js';
import { TestService } from '../support/harness.js';
import { cliHome } from './support.js';

const catalogue = loadCatalogue();
const profile = (key: string): Profile => ({ key, keyId: `key_${key}`, workspaceId: 'ws_1', scope: 'read:content', savedAt: '2026-11-21T00:00:00.000Z' });

describe('stored logins', () => {
  it('keeps one profile per server in a 0600 file inside a 0700 directory; the last login is the current server', () => {
    const store = new ProfileStore(cliHome().configDir);
    store.save('https://a.example', profile('a'));
    store.save('https://b.example', profile('b'));
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(store.directory).mode & 0o777).toBe(0o700);
    expect(store.current).toBe('https://b.example');
    expect(store.profile('https://a.example')?.key).toBe('a');
    expect(store.remove('https://b.example')).toBe(true);
    expect(store.current).toBe('https://a.example');
    expect(store.remove('https://b.example')).toBe(false);
  });

  it('resolves --url and --key over SIGHTLINE_URL and SIGHTLINE_API_KEY over the stored login', () => {
    const store = new ProfileStore(cliHome().configDir);
    expect(resolveConnection({}, {}, store)).toMatchObject({ server: DEFAULT_SERVER, keySource: 'none' });
    store.save('https://a.example', profile('a'));
    expect(resolveConnection({}, {}, store)).toMatchObject({ server: 'https://a.example', key: 'a', keySource: 'login' });
    expect(resolveConnection({}, { SIGHTLINE_API_KEY: 'env' }, store)).toMatchObject({ key: 'env', keySource: 'SIGHTLINE_API_KEY' });
    expect(resolveConnection({ key: 'flag' }, { SIGHTLINE_API_KEY: 'env' }, store)).toMatchObject({ key: 'flag', keySource: '--key' });
    expect(resolveConnection({}, { SIGHTLINE_URL: 'https://b.example/' }, store)).toMatchObject({ server: 'https://b.example', keySource: 'none' });
    expect(resolveConnection({ url: 'https://a.example/' }, { SIGHTLINE_URL: 'https://b.example' }, store)).toMatchObject({ server: 'https://a.example', key: 'a' });
  });

  it('refuses a server address that is not an http(s) URL', () => {
    expect(() => normaliseServer('sightline.example')).toThrow(/--url: "sightline.example" is not an absolute URL/);
    expect(() => normaliseServer('ftp://sightline.example')).toThrow(/must be an http or https URL/);
  });
});

describe('the device login loop', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ writer: false });
  });
  afterAll(() => t.close());

  it("polls at the server's interval, five seconds slower after slow_down, until approved", async () => {
    const ws = await t.signedInOwner();
    let userCode = '';
    const waits: number[] = [];
    const login = await deviceLogin({
      catalogue,
      server: t.baseUrl,
      scope: 'read:content write:content',
      instruct: async (started) => {
        userCode = started.userCode;
        expect(started.verificationUri).toBe(`${t.baseUrl}/device`);
      },
      // The second wait is cut short, as a client with a fast clock would: the server answers slow_down.
      sleep: async (ms) => {
        waits.push(ms);
        t.clock.advance(waits.length === 2 ? 1000 : ms);
        if (waits.length === 4) await decideDevice(ws.visitor, ws, userCode, 'approve', ['read:content', 'write:content']);
      },
    });
    expect(waits).toEqual([5000, 5000, 10_000, 10_000]);
    expect(login).toMatchObject({ key: expect.stringMatching(/^slk_/), keyId: expect.stringMatching(/^key_/), workspaceId: ws.workspaceId, scope: 'read:content write:content' });
    expect((await t.rest(login.key, 'GET', '/api/v1/brand')).status).toBe(200);
  });

  it('ends with the auth exit code when the login is denied or the code expires', async () => {
    const ws = await t.signedInOwner();
    const run = (onWait: (userCode: string) => Promise<void>) => {
      let userCode = '';
      return deviceLogin({
        catalogue,
        server: t.baseUrl,
        instruct: async (started) => void (userCode = started.userCode),
        sleep: async (ms) => {
          t.clock.advance(ms);
          await onWait(userCode);
        },
      });
    };
    const denied = run((code) => decideDevice(ws.visitor, ws, code, 'deny'));
    await expect(denied).rejects.toThrow(new CliError('the login was denied on the approval page', EXIT.auth));
    await expect(denied).rejects.toMatchObject({ exitCode: EXIT.auth });
    const expired = run(async () => t.clock.advance(10 * 60_000));
    await expect(expired).rejects.toMatchObject({ message: 'the code expired before it was approved; run sightline login again', exitCode: EXIT.auth });
  });
});
