#!/usr/bin/env node
// A local HTTPS webhook receiver for trying Trunkline's webhooks (docs/webhooks.md, "Try it
// locally"). It prints every delivery and, when WEBHOOK_SECRET is set, verifies its Standard
// Webhooks signature: HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}` under the
// base64 key after `whsec_`, compared with each `v1,` signature in the header (two during a
// secret rotation). Usage: node examples/webhook-receiver.mjs CERT.pem KEY.pem [PORT]
// Answers 204, or the status in RESPOND_STATUS (e.g. 500, to watch the retries).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const [certFile, keyFile, port = '9443'] = process.argv.slice(2);
if (!certFile || !keyFile) {
  console.error('usage: node examples/webhook-receiver.mjs CERT.pem KEY.pem [PORT]');
  process.exit(2);
}
const secret = process.env.WEBHOOK_SECRET;
const status = Number(process.env.RESPOND_STATUS ?? 204);

function verified(headers, body) {
  if (!secret) return 'not checked (set WEBHOOK_SECRET)';
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  const offered = String(headers['webhook-signature'] ?? '').split(' ');
  const match = offered.some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  const age = Math.abs(Date.now() / 1000 - Number(headers['webhook-timestamp']));
  return match && age < 300 ? 'valid' : 'INVALID';
}

createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let event = {};
    try {
      event = JSON.parse(body);
    } catch {
      // printed as received below
    }
    console.log(
      `${req.method} ${req.url} webhook-id=${req.headers['webhook-id']} signature ${verified(req.headers, body)}`,
    );
    console.log(`  type=${event.type ?? '?'} ${body.length > 400 ? body.slice(0, 400) + '…' : body}`);
    res.writeHead(status).end();
  });
}).listen(Number(port), '127.0.0.1', () => console.log(`webhook receiver on https://127.0.0.1:${port}/hooks`));
