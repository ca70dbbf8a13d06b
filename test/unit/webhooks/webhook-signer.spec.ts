import { generateWebhookSecret, sign, signedHeaders } from '../../../src/webhooks/domain/webhook-signer';
import { verifyStandardWebhook } from './standard-webhooks.verifier';

const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'trunk.created',
  created_at: '2026-11-21T10:00:00.000Z',
  data: { id: 'conn_1' },
});
const now = () => Math.floor(Date.now() / 1000);

describe('webhook signer (Standard Webhooks)', () => {
  it('generates whsec_ secrets of 32 random bytes in base64', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('signs so that an independent verifier accepts the signature', () => {
    const secret = generateWebhookSecret();
    const headers = signedHeaders([secret], 'evt_1', now(), BODY);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyStandardWebhook(secret, headers, BODY)).toBe(true);
  });

  it('matches a known vector: HMAC-SHA256 over id.timestamp.body under the decoded secret', () => {
    // Vector from the Standard Webhooks reference libraries' test suite.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('a verifier rejects a changed body, another secret, and a stale timestamp', () => {
    const secret = generateWebhookSecret();
    const headers = signedHeaders([secret], 'evt_1', now(), BODY);
    expect(verifyStandardWebhook(secret, headers, BODY.replace('conn_1', 'conn_2'))).toBe(false);
    expect(verifyStandardWebhook(generateWebhookSecret(), headers, BODY)).toBe(false);
    const old = signedHeaders([secret], 'evt_1', now() - 3600, BODY);
    expect(verifyStandardWebhook(secret, old, BODY)).toBe(false);
  });

  it('signs with every given secret, so either one verifies during a rotation', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signedHeaders([current, previous], 'evt_2', now(), BODY);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(current, headers, BODY)).toBe(true);
    expect(verifyStandardWebhook(previous, headers, BODY)).toBe(true);
    expect(verifyStandardWebhook(generateWebhookSecret(), headers, BODY)).toBe(false);
  });
});
