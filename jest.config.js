/** Test tiers: unit (pure), contract (one suite per port, every adapter), integration (real
 * PostgreSQL/Redis), e2e (the real app over HTTPS). All run in `npm test`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  // Every response the e2e tests receive is checked against the app's published OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-conformance.setup.ts'],
  testTimeout: Number(process.env.TEST_DEADLINE_MS ?? 300000), // test/support/deadlines.ts
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
