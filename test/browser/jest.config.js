/**
 * The browser tier (`npm run test:browser`): the real app over HTTPS and the built console in
 * Debian's Chromium, driven by playwright-core. One spec at a time: each starts its own app and
 * browser, and both cores are theirs.
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/browser/tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: Number(process.env.TEST_DEADLINE_MS ?? 300000), // test/support/deadlines.ts
  maxWorkers: 1,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
