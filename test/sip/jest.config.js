/** `npm run test:sip` (through run.mjs): Trunkline, Kamailio and SIPp over loopback, one case after another. */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/sip'],
  testMatch: ['**/*.sip.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: Number(process.env.TEST_DEADLINE_MS ?? 300000), // test/support/deadlines.ts
  maxWorkers: 1,
  reporters: ['default'],
};
