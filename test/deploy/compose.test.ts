import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { ROOT } from '../../src/exports/artifacts.js';

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  stop_grace_period?: string;
}

const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> };
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
/** The image's Node major: the current LTS, one of the majors `.ci/run` runs the suite on. */
const IMAGE_NODE = 24;

/** `${NAME:-default}` and `${NAME:?message}` as compose fills them in, with `given` for the variables set. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    if (given[name] !== undefined) return given[name]!;
    if (kind === '-') return rest ?? '';
    throw new Error(`${name} is required: ${rest}`);
  });
}

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, two instances and a proxy, each started only once what it needs is healthy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app1', 'app2', 'postgres', 'proxy', 'redis']);
    for (const name of ['postgres', 'redis']) expect(compose.services[name]!.healthcheck).toBeDefined();
    for (const name of ['app1', 'app2']) {
      const app = compose.services[name]!;
      expect(app.build).toBe('.');
      expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(compose.services.proxy!.depends_on).toEqual({ app1: { condition: 'service_healthy' }, app2: { condition: 'service_healthy' } });
  });

  it('gives the instances settings the service accepts: the shared database and Redis, the trusted proxy, a required SECRETS_KEY', () => {
    const environment = compose.services.app1!.environment!;
    expect(() => interpolate(environment.SECRETS_KEY!, {})).toThrow(/SECRETS_KEY is required/);
    const filled = Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(value, { SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') })]));
    const config = loadConfig(filled);
    expect(config).toMatchObject({ redisUrl: 'redis://redis:6379', trustProxy: 1, databasePoolMax: 10, publicUrl: 'http://localhost:8080' });
    expect(config.databaseUrl).toMatch(/^postgres:\/\/sightline:sightline@postgres:5432\//);
    expect(config.secretsKey).toHaveLength(32);
    // Docker's stop timeout outlasts the service's own grace, so a stop is graceful rather than a SIGKILL.
    expect(Number.parseInt(compose.services.app1!.stop_grace_period!, 10) * 1000).toBeGreaterThan(config.shutdownGraceMs);
  });

  it('proxies to both instances through a Caddyfile that exists, checking their readiness', () => {
    const mount = compose.services.proxy!.volumes!.find((volume) => volume.includes('Caddyfile'))!;
    const caddyfile = readFileSync(join(ROOT, mount.split(':')[0]!), 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy app1:8787 app2:8787/);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
  });
});

describe('Dockerfile', () => {
  it('builds in a stage of its own with the shared steps script, and runs the compiled service as a non-root user with a health check', () => {
    expect(dockerfile).toMatch(new RegExp(`^FROM node:${IMAGE_NODE}[\\w.-]* AS build$`, 'm'));
    expect(dockerfile).toMatch(/^RUN sh deploy\/image-steps\.sh$/m);
    expect(existsSync(join(ROOT, 'deploy', 'image-steps.sh'))).toBe(true);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    // The toolchain for the native module is installed in the build stage only.
    const [buildStage, runStage] = dockerfile.split(new RegExp(`^FROM node:${IMAGE_NODE}[\\w.-]*$`, 'm'));
    expect(buildStage).toMatch(/g\+\+/);
    expect(runStage).not.toMatch(/g\+\+/);
  });

  it('runs a Node major the suite is tested on, and one the package supports', () => {
    const ciMajors = [...readFileSync(join(ROOT, '.ci', 'run'), 'utf8').matchAll(/^run_suite_on_node (\d+)/gm)].map((call) => Number(call[1]));
    expect(ciMajors).toContain(IMAGE_NODE);
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(IMAGE_NODE).toBeGreaterThanOrEqual(Number(/^>=(\d+)/.exec(engines)?.[1]));
  });
});
