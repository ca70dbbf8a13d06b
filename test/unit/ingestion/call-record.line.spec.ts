import { generateCalls } from '../../../bench/lib/calls/call-generator';
import { turnsJson } from '../../../src/calls/ingestion/call-record.line';
import { validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';

describe('turns as the row writes them', () => {
  it('are the bytes JSON.stringify gives for every generated record', () => {
    const records = [
      ...generateCalls({ count: 300, trunkIds: ['conn_a'], from: new Date(0), to: new Date(86_400_000), seed: 7 }),
    ];
    for (const input of records) {
      const verdict = validateCallRecord(input);
      if (!verdict.ok) throw new Error(verdict.message);
      expect(turnsJson(verdict.record.turns)).toBe(JSON.stringify(verdict.record.turns));
    }
    expect(turnsJson([])).toBe('[]');
    const turns = [
      {
        turn_number: 1,
        speaker: 'caller',
        duration_ms: 0,
        processing_time_ms: 0,
        interrupted: false,
        start_offset_ms: null,
      },
      {
        turn_number: 2,
        speaker: 'agent',
        duration_ms: 5,
        processing_time_ms: 7,
        interrupted: true,
        start_offset_ms: 12,
      },
    ] as const;
    expect(turnsJson(turns)).toBe(JSON.stringify(turns));
  });
});
