import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The @domain/… @server/… aliases of tsconfig.json.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['src/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/kinds/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    // Each API file opens its own in-memory PGlite (~0.4 GB): keep to two at a time on 2 cores.
    maxWorkers: 2,
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
