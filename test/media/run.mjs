// npm run test:media: the media suite (Kamailio, SIPp speech, the media gateway) in a process group of its own.
import { runJestInGroup } from '../support/jest-group.mjs';

runJestInGroup({
  name: 'test:media',
  config: 'test/media/jest.config.js',
  tools: ['kamailio', 'sipp', 'espeak-ng', 'sox'],
  install: 'kamailio kamailio-utils-modules kamailio-json-modules kamailio-extra-modules sip-tester espeak-ng sox',
  limitMs: Number(process.env.MEDIA_TEST_LIMIT_MS ?? 600_000),
});
