import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit-and-integration',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/e2e/**', 'tests/server-postgres/**', '**/node_modules/**'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The backend's suites again, on PostgreSQL: AXIOM_TEST_PG, or a server this run starts.
        test: {
          name: 'server-postgres',
          include: ['tests/server/**/*.test.ts', 'tests/server-postgres/**/*.test.ts', 'tests/chain/payouts.test.ts'],
          exclude: ['tests/server/money.test.ts', '**/node_modules/**'],
          environment: 'node',
          env: { AXIOM_TEST_ENGINE: 'postgres' },
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Whole-product browser tests: one Chromium, one backend and one app build at a time.
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
