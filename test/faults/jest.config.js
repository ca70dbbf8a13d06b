/** The fault suite (`npm run test:faults`): its own PostgreSQL and Redis, one case at a time. */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/faults'],
  testMatch: ['**/*.faults.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: Number(process.env.TEST_DEADLINE_MS ?? 300000), // test/support/deadlines.ts
  maxWorkers: 1,
  reporters: ['default'],
};
