import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (apt-get install chromium); Playwright's own browser download is not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium driven by playwright-core, trusting exactly the app's self-signed certificate (its
 * SPKI pin), not every certificate. Running as root needs --no-sandbox. Shared by the browser
 * tests (test/browser) and the console benchmark.
 */
export async function launchChromium(certPem: string): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  const pin = createHash('sha256').update(spki).digest('base64');
  const args = [`--ignore-certificate-errors-spki-list=${pin}`, '--disable-dev-shm-usage'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return chromium.launch({ executablePath: CHROMIUM, args });
}
