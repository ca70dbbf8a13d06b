import {
  checkLiteralHost,
  ForbiddenAddressError,
  guardedLookup,
  isForbiddenAddress,
} from '../../../src/webhooks/delivery/ssrf.guard';

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('refuses private IP literals in URLs unless allowed', () => {
    expect(() => checkLiteralHost('127.0.0.1', false)).toThrow(ForbiddenAddressError);
    expect(() => checkLiteralHost('[::1]', false)).toThrow(ForbiddenAddressError);
    expect(() => checkLiteralHost('127.0.0.1', true)).not.toThrow();
    expect(() => checkLiteralHost('example.com', false)).not.toThrow();
  });

  it('refuses a name that resolves to loopback at connect time', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (err) => resolve(err)),
    );
    expect(error).toBeInstanceOf(ForbiddenAddressError);
    const allowed = await new Promise<Error | null>((resolve) =>
      guardedLookup(true)('localhost', {}, (err) => resolve(err)),
    );
    expect(allowed).toBeNull();
  });
});
