import { CALL_LIST_ITEM_KEYS } from '../../../src/calls/contracts/call-list-item';
import { validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';
import { completedCallOf } from '../../../src/webhooks/calls/call-completed.recorder';
import { buildDocumentOffline } from '../../../scripts/openapi/offline-document';

type Schema = { properties?: Record<string, unknown>; allOf?: Schema[] };

/**
 * GET /v1/calls, the detail's common part and call.completed are built by one function
 * (callListItem); the e2e case in webhooks-calls-alerts compares real deliveries with real reads.
 * These fail as soon as the document or the webhook form names a field the function does not.
 */
describe('the call list item', () => {
  it('is what the document publishes for the list, the detail and the call.completed payload', async () => {
    const document = await buildDocumentOffline();
    const schemas = document.components!.schemas as Record<string, Schema>;
    const keys = (name: string) => Object.keys(schemas[name].properties ?? {}).sort();
    const listKeys = [...CALL_LIST_ITEM_KEYS].sort();
    expect(keys('CallListItemDto')).toEqual(listKeys);
    expect(keys('CallDetailDto')).toEqual(expect.arrayContaining(listKeys));
  });

  it('carries the signalling and failure facts in call.completed as the list does', () => {
    const verdict = validateCallRecord({
      id: 'call_abc123',
      trunk_id: 'conn_xyz',
      from: 'anonymous',
      to: '+442071838750',
      start_time: '2026-11-21T10:00:00.000Z',
      end_time: '2026-11-21T10:00:04.000Z',
      invite_at: '2026-11-21T10:00:00.000Z',
      sip_code: 486,
    });
    if (!verdict.ok) throw new Error(`record refused: ${JSON.stringify(verdict)}`);
    const call = completedCallOf({ ...verdict.record, account_id: 'acct_1', provider: 'twilio' });
    expect(Object.keys(call)).toEqual(CALL_LIST_ITEM_KEYS);
    expect(call).toMatchObject({
      from: 'anonymous',
      from_e164: null,
      to_e164: '+442071838750',
      invite_at: '2026-11-21T10:00:00.000Z',
      sip_code: 486,
      status: 'failed',
      billable_seconds: 0,
    });
    expect(call.failure_class).toEqual(expect.any(String));
  });
});
