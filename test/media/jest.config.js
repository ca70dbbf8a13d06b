/** `npm run test:media` (through run.mjs): Trunkline, Kamailio, the media gateway, mock agents and SIPp over loopback. */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/media'],
  testMatch: ['**/*.media.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: 120000,
  maxWorkers: 1,
  reporters: ['default'],
};
