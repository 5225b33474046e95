import { defineConfig } from 'vitest/config'
import { postgresUnavailable } from './tests/support/postgres.ts'

/** Whether this run asks for the `server-postgres` project (every project when none is named). */
const wantsPostgres = (argv: string[]): boolean => {
  const named = argv.flatMap((a, i) => (a === '--project' ? [argv[i + 1] ?? ''] : a.startsWith('--project=') ? [a.slice('--project='.length)] : []))
  return named.length === 0 || named.some((n) => n.includes('postgres') || n.includes('*'))
}

/**
 * The PostgreSQL project needs AXIOM_TEST_PG or an embedded server this machine can run. When it
 * cannot run, the project is left out with one line saying why, rather than failing every run.
 */
const postgresSkipped = !process.env.AXIOM_TEST_PG && wantsPostgres(process.argv) ? await postgresUnavailable() : null
if (postgresSkipped) console.warn(`server-postgres project SKIPPED: ${postgresSkipped}`)

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
      ...(postgresSkipped
        ? []
        : [
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
          ]),
      {
        // Whole-product browser tests: one Chromium, one backend and one app build at a time.
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          // A poll waits on a page, a socket or a lazy chunk: 10 s, not vitest's 1 s (a call may set its own).
          expect: { poll: { timeout: 10_000 } },
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
