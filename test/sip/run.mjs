// npm run test:sip: the SIP suite (real Kamailio and SIPp) in a process group of its own.
import { runJestInGroup } from '../support/jest-group.mjs';

runJestInGroup({
  name: 'test:sip',
  config: 'test/sip/jest.config.js',
  tools: ['kamailio', 'sipp', 'sqlite3', 'socat'],
  install:
    'kamailio kamailio-utils-modules kamailio-json-modules kamailio-extra-modules kamailio-sqlite-modules kamailio-tls-modules sqlite3 socat sip-tester',
  limitMs: Number(process.env.SIP_TEST_LIMIT_MS ?? 600_000),
});
