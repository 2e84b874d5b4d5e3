import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'tools/**/*.test.ts', 'adapters/**/*.test.ts', 'db/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    // One test file per core: vitest's default leaves one core free, and about half of a file's time here is spent
    // waiting on local servers and child processes, so on a 2-core machine the default ran the files one at a time.
    // On PostgreSQL, one at a time: kysely's migrator looks for its table through an introspection that reads every
    // schema's catalog, and a schema another test file drops at that moment fails it ("schema … does not exist").
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Node reads NODE_EXTRA_CA_CERTS once, when a process starts; vitest starts its test workers with this env, so the
    // local https receivers (certificates from test/support/tls) are trusted the way a real site's certificate is.
    // The service processes tests start never search the real Hacker News or Stack Exchange (on by default: no key).
    env: { NODE_EXTRA_CA_CERTS: fileURLToPath(new URL('./test/support/tls/ca.pem', import.meta.url)), SOCIAL_SOURCES_OFF: 'hackernews,stackexchange' },
  },
});
