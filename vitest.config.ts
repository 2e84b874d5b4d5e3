import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'tools/**/*.test.ts', 'adapters/**/*.test.ts', 'db/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
