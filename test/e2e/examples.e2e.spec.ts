import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';

const ROOT = join(__dirname, '..', '..');

/** The README's walk-through sends examples/calls.ndjson through examples/calls.mjs: it must stay valid. */
describe('the README example call records', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it("are all accepted for the trunk they are pointed at, and count in today's analytics", async () => {
    const { client } = await provisionAccountDirect(app);
    const trunk = await client.post('/v1/trunks', customBody());
    const ndjson = execFileSync(process.execPath, [join(ROOT, 'examples/calls.mjs'), trunk.body.id], {
      encoding: 'utf8',
    });
    const ingest = await client.call('POST', '/v1/ingest/calls', {
      rawBody: ndjson,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(ingest.body).toEqual({ accepted: 6, rejected: [] });
    const overview = await client.get('/v1/analytics/overview');
    expect(overview.body.summary.total_calls).toBe(6);
  });
});
