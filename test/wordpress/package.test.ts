// The WordPress plugin's files without a WordPress: PHP syntax, the generated crawler list against the service's own
// classification, and the installable zip. The PHP checks are skipped, with the reason, on a machine without php.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { AI_CRAWLER_PATTERNS, classifyUserAgent } from '../../src/crawlers/classify.js';
import { ROOT } from '../../src/exports/artifacts.js';
import { buildPluginZip, pluginVersion, WORDPRESS_CRAWLERS_FILE, WORDPRESS_PLUGIN_DIR } from '../../src/exports/wordpressPlugin.js';

const run = promisify(execFile);
const hasPhp = await run('php', ['-v']).then(
  () => true,
  () => false,
);
const PLUGIN = `${ROOT}${WORDPRESS_PLUGIN_DIR}`;

async function pluginFiles(dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(`${PLUGIN}${dir}`, { withFileTypes: true })) {
    if (entry.isDirectory()) files.push(...(await pluginFiles(`${dir}${entry.name}/`)));
    else files.push(`${dir}${entry.name}`);
  }
  return files;
}

const USER_AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  // Each crawler's own name, as the simplest agent that carries it.
  ...AI_CRAWLER_PATTERNS.map(([crawler]) => `${crawler}/1.0`),
];
const AI_NAMES = new Set(AI_CRAWLER_PATTERNS.map(([crawler]) => crawler));

if (!hasPhp) {
  describe('the WordPress plugin in PHP', () => {
    it.skip('is not checked here: no php command (test/wordpress/install.sh installs it)');
  });
}

describe.skipIf(!hasPhp)('the WordPress plugin in PHP', () => {
  it('passes php -l on every PHP file', async () => {
    const files = (await pluginFiles()).filter((file) => file.endsWith('.php'));
    expect(files).toContain('sightline.php');
    for (const file of files) expect((await run('php', ['-l', `${PLUGIN}${file}`])).stdout, file).toContain('No syntax errors detected');
  });

  it("reports exactly the agents the service counts as AI crawlers (its shipped list is the service's)", async () => {
    // Loaded outside WordPress: its hooks are registered into a stub, only the matching runs.
    const script = `define('ABSPATH', '/'); function add_action() {} require '${ROOT}${WORDPRESS_PLUGIN_DIR}includes/crawler-report.php'; require '${ROOT}${WORDPRESS_CRAWLERS_FILE}';
foreach (json_decode(stream_get_contents(STDIN), true) as $ua) echo sightline_is_ai_crawler($ua) ? '1' : '0';`;
    const child = execFile('php', ['-r', script]);
    child.stdin!.end(JSON.stringify(USER_AGENTS));
    let out = '';
    let errors = '';
    child.stderr!.on('data', (chunk) => (errors += String(chunk)));
    for await (const chunk of child.stdout!) out += String(chunk);
    expect(errors).toBe('');
    expect(out).toBe(USER_AGENTS.map((ua) => (AI_NAMES.has(classifyUserAgent(ua).crawler) ? '1' : '0')).join(''));
    expect(out.slice(0, 7)).toBe('1111000');
  });
});

describe('npm run build:wordpress-plugin', () => {
  it('zips every file of the plugin under sightline/, with the version of its header', async () => {
    const { version, zip } = await buildPluginZip(ROOT);
    expect(version).toBe(pluginVersion(await readFile(`${PLUGIN}sightline.php`, 'utf8')));
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const entries = unzipSync(zip);
    const files = Object.keys(entries).filter((name) => !name.endsWith('/'));
    expect(files.sort()).toEqual((await pluginFiles()).map((file) => `sightline/${file}`).sort());
    expect(Buffer.from(entries['sightline/sightline.php']!).toString()).toBe(await readFile(`${PLUGIN}sightline.php`, 'utf8'));
  });
});
