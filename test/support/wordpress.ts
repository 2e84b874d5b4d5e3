// A real WordPress for tests: Debian's package (test/wordpress/install.sh; .ci/run installs it) copied into a temp
// dir with its own wp-config.php, its own MariaDB database on 127.0.0.1:3306, served by `php -S` behind a local https
// proxy with the test certificate, so WordPress sees https (application passwords want it) and Node trusts it (vitest
// sets NODE_EXTRA_CA_CERTS to the test CA). A machine without WordPress, PHP's mysqli or MariaDB skips the suites that
// use it, with the reason `wordpressUnavailable` gives.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { Server } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './harness.js';
import { closeServer, startHttpsServer } from './localServers.js';

const run = promisify(execFile);

/** Debian's WordPress (WORDPRESS_DIR overrides) and the PHP command line (PHP_PATH overrides). */
const WORDPRESS_DIR = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';
const PHP = process.env.PHP_PATH ?? 'php';
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const PLUGIN_DIR = fileURLToPath(new URL('../../integrations/wordpress/sightline/', import.meta.url));

export interface WordPressUser {
  id: number;
  user: string;
  /** The login password, for wp-login.php (the dashboard's pages). */
  password: string;
  /** An application password, for the REST API with Basic authentication (`user:appPassword`). */
  appPassword: string;
}

export interface TestWordPress {
  /** The https address (no trailing slash) WordPress answers on and believes is its own (WP_HOME, WP_SITEURL). */
  url: string;
  /** The WordPress copy's directory (ABSPATH): a test may add files, such as wp-content/mu-plugins/*.php. */
  root: string;
  admin: WordPressUser;
  author: WordPressUser;
  subscriber: WordPressUser;
  /** Runs PHP statements (no `<?php`) in a CLI process that loaded WordPress; answers what they print. */
  runPhp(code: string): Promise<string>;
  /** update_option with any JSON value, stored as WordPress stores it (no settings sanitizer runs outside wp-admin). */
  setOption(name: string, value: unknown): Promise<void>;
  /** An authorization header value for a user's application password. */
  basicAuth(user: WordPressUser): string;
  /** Stops PHP and the proxy, drops the database and removes the copy. */
  stop(): Promise<void>;
}

async function phpRuns(args: string[]): Promise<string | undefined> {
  try {
    return (await run(PHP, args, { timeout: 10_000 })).stdout;
  } catch {
    return undefined;
  }
}

function phpString(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}

/** PHP that connects to MariaDB as root and runs one statement. */
function mariadbStatement(statement: string): string {
  return `$db = @new mysqli(${phpString(MARIADB.host)}, ${phpString(MARIADB.user)}, ${phpString(MARIADB.password)}, '', ${MARIADB.port}); if ($db->connect_errno) { fwrite(STDERR, $db->connect_error); exit(1); } if (!$db->query(${phpString(statement)})) { fwrite(STDERR, $db->error); exit(1); }`;
}

/**
 * Why WordPress tests cannot run here, or undefined when they can: they need Debian's WordPress, PHP with mysqli and
 * MariaDB answering on 127.0.0.1:3306 as root without a password.
 */
export async function wordpressUnavailable(): Promise<string | undefined> {
  if (!existsSync(join(WORDPRESS_DIR, 'wp-load.php'))) return `no WordPress at ${WORDPRESS_DIR} (run test/wordpress/install.sh)`;
  const modules = await phpRuns(['-m']);
  if (modules === undefined) return `no PHP command line (${PHP}; run test/wordpress/install.sh)`;
  if (!/^mysqli$/m.test(modules)) return "PHP has no mysqli (install php-mysql: test/wordpress/install.sh)";
  if ((await phpRuns(['-r', mariadbStatement('SELECT 1')])) === undefined) return `MariaDB does not answer on ${MARIADB.host}:${MARIADB.port} as ${MARIADB.user} without a password`;
  return undefined;
}

function wpConfig(database: string, url: string): string {
  const salt = () => phpString(randomBytes(32).toString('hex'));
  const keys = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
  return `<?php
define( 'DB_NAME', ${phpString(database)} );
define( 'DB_USER', ${phpString(MARIADB.user)} );
define( 'DB_PASSWORD', ${phpString(MARIADB.password)} );
define( 'DB_HOST', ${phpString(`${MARIADB.host}:${MARIADB.port}`)} );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
${keys.map((key) => `define( '${key}', ${salt()} );`).join('\n')}
$table_prefix = 'wp_';
// The https proxy in front of php -S says so; WordPress then builds https links and secure cookies.
if ( isset( $_SERVER['HTTP_X_FORWARDED_PROTO'] ) && 'https' === $_SERVER['HTTP_X_FORWARDED_PROTO'] ) {
	$_SERVER['HTTPS'] = 'on';
}
define( 'WP_HOME', ${phpString(url)} );
define( 'WP_SITEURL', ${phpString(url)} );
define( 'WP_ENVIRONMENT_TYPE', 'local' );
// Nothing of a test reaches wordpress.org (update checks) or runs cron on page loads.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'DISABLE_WP_CRON', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_DEBUG', false );
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
`;
}

// php -S serves existing files itself (return false); every other path is a WordPress permalink for index.php.
const ROUTER = `<?php
$path = rawurldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ( is_file( $file ) || ( is_dir( $file ) && is_file( rtrim( $file, '/' ) . '/index.php' ) ) ) {
	return false;
}
$_SERVER['SCRIPT_NAME']     = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
`;

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`php -S exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`php -S did not listen on ${port}: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An https server that hands every request to php -S, saying it came over https. */
async function startProxy(phpPort: () => number): Promise<{ server: Server; port: number }> {
  const { server, port } = await startHttpsServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: phpPort(), method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-proto': 'https' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the test proxy could not reach php -S: ${error.message}`);
    });
    req.pipe(upstream);
  });
  return { server, port };
}

/**
 * A fresh WordPress with an administrator, an author and a subscriber (each with an application password), pretty
 * permalinks (/%postname%/) unless `permalinks: false`, and the Sightline plugin active unless `plugin: false`.
 * Call `stop()` when done (afterAll).
 */
export async function startWordPress(options: { permalinks?: boolean; plugin?: boolean } = {}): Promise<TestWordPress> {
  const dir = await mkdtemp(join(tmpdir(), 'sightline-wp-'));
  const root = join(dir, 'wordpress');
  const database = `sightline_wp_${randomBytes(6).toString('hex')}`;
  let php: ChildProcess | undefined;
  let proxy: Server | undefined;
  let databaseMade = false;
  const stop = async () => {
    if (php?.pid !== undefined && php.exitCode === null) {
      const exited = new Promise((resolve) => php!.once('exit', resolve));
      // The whole process group: with PHP_CLI_SERVER_WORKERS the workers are forked children that outlive their parent.
      process.kill(-php.pid, 'SIGTERM');
      await exited;
    }
    if (proxy !== undefined) await closeServer(proxy);
    if (databaseMade) await run(PHP, ['-r', mariadbStatement(`DROP DATABASE IF EXISTS \`${database}\``)]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    let phpPort = 0;
    const started = await startProxy(() => phpPort);
    proxy = started.server;
    const url = `https://127.0.0.1:${started.port}`;
    const host = `127.0.0.1:${started.port}`;

    // A copy, not Debian's tree: its wp-config.php reads /etc/wordpress/config-<host>.php, one file per host name.
    await cp(WORDPRESS_DIR, root, { recursive: true, verbatimSymlinks: true });
    await writeFile(join(root, 'wp-config.php'), wpConfig(database, url));
    await writeFile(join(dir, 'router.php'), ROUTER);
    if (options.plugin !== false) await cp(PLUGIN_DIR, join(root, 'wp-content', 'plugins', 'sightline'), { recursive: true });
    await run(PHP, ['-r', mariadbStatement(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4`)]);
    databaseMade = true;

    // Each script starts as a request to the site would, so WordPress reads the same host and scheme.
    const preamble = `<?php
$_SERVER['HTTP_HOST'] = ${phpString(host)};
$_SERVER['HTTPS'] = 'on';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['SERVER_PORT'] = ${phpString(String(started.port))};
`;
    let scripts = 0;
    const runScript = async (body: string): Promise<string> => {
      const file = join(dir, `script-${++scripts}.php`);
      await writeFile(file, `${preamble}${body}\n`);
      try {
        return (await run(PHP, [file], { cwd: root, timeout: 20_000 })).stdout;
      } catch (error) {
        const failure = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`PHP failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
      }
    };
    const runPhp = (code: string) => runScript(`require ${phpString(join(root, 'wp-load.php'))};\n${code}`);

    const passwords = { admin: randomBytes(12).toString('hex'), author: randomBytes(12).toString('hex'), subscriber: randomBytes(12).toString('hex') };
    // wp_mail is pluggable: defined first, the install's notice to the administrator goes nowhere (no sendmail here).
    await runScript(`define( 'WP_INSTALLING', true );
function wp_mail() { return true; }
require ${phpString(join(root, 'wp-load.php'))};
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$installed = wp_install( 'Sightline test site', 'admin', 'admin@wordpress.test', false, '', ${phpString(passwords.admin)} );
if ( is_wp_error( $installed ) ) { fwrite( STDERR, $installed->get_error_message() ); exit( 1 ); }`);
    const setup = JSON.parse(
      await runPhp(`require_once ABSPATH . 'wp-admin/includes/plugin.php';
${options.permalinks === false ? '' : "global $wp_rewrite; $wp_rewrite->set_permalink_structure( '/%postname%/' ); $wp_rewrite->flush_rules( false );"}
$users = array( 'admin' => 1 );
foreach ( array( 'author' => ${phpString(passwords.author)}, 'subscriber' => ${phpString(passwords.subscriber)} ) as $role => $password ) {
	$id = wp_insert_user( array( 'user_login' => $role, 'user_pass' => $password, 'user_email' => $role . '@wordpress.test', 'role' => $role ) );
	if ( is_wp_error( $id ) ) { fwrite( STDERR, $id->get_error_message() ); exit( 1 ); }
	$users[ $role ] = $id;
}
$out = array();
foreach ( $users as $role => $id ) {
	list( $app_password ) = WP_Application_Passwords::create_new_application_password( $id, array( 'name' => 'sightline-tests' ) );
	$out[ $role ] = array( 'id' => $id, 'appPassword' => $app_password );
}
${options.plugin === false ? '' : "$activated = activate_plugin( 'sightline/sightline.php' ); if ( is_wp_error( $activated ) ) { fwrite( STDERR, $activated->get_error_message() ); exit( 1 ); }"}
echo wp_json_encode( $out );`),
    ) as Record<'admin' | 'author' | 'subscriber', { id: number; appPassword: string }>;

    phpPort = await freePort();
    let log = '';
    // Several workers, so that a page can be served while another request (a REST call, a report) is under way.
    php = spawn(PHP, ['-S', `127.0.0.1:${phpPort}`, '-t', root, join(dir, 'router.php')], {
      cwd: root,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, so that stop() ends the workers with it.
      detached: true,
    });
    const keep = (chunk: Buffer) => {
      log = `${log}${chunk.toString()}`.slice(-4000);
    };
    php.stdout!.on('data', keep);
    php.stderr!.on('data', keep);
    await waitForPort(phpPort, php, () => log);

    const user = (role: 'admin' | 'author' | 'subscriber'): WordPressUser => ({ id: setup[role].id, user: role, password: passwords[role], appPassword: setup[role].appPassword });
    return {
      url,
      root,
      admin: user('admin'),
      author: user('author'),
      subscriber: user('subscriber'),
      runPhp,
      setOption: async (name, value) => {
        await runPhp(`update_option( ${phpString(name)}, json_decode( ${phpString(JSON.stringify(value))}, true ) );`);
      },
      basicAuth: (account) => `Basic ${Buffer.from(`${account.user}:${account.appPassword}`).toString('base64')}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
