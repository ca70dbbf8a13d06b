import type { OverviewRow } from '../../../src/analytics/read/analytics.sql';
import { combineRows } from '../../../src/analytics/read/overview-edge-rows';

const row = (over: Partial<OverviewRow>): OverviewRow => ({
  kind: 'total',
  key: '',
  pos: 0,
  v: [],
  loss: 0,
  codecs: [[], []],
  names: [],
  edge: 1,
  ...over,
});

describe('combineRows: an edge copy plus or minus the raw rows in between', () => {
  it('adds the rows of one group, every sum, the loss and each codec count with its factor', () => {
    // Given a kept edge's rows, and the rows of the instants that left it (JSON's Int64 as strings)
    const kept = [
      row({
        v: [10, 7, 3],
        loss: 2.5,
        codecs: [
          ['G711', 'OPUS'],
          [6, 4],
        ],
      }),
      row({ kind: 'trunk', key: 'conn_a', v: [4, 4] }),
    ];
    const left = [row({ v: ['2', '1', '1'], loss: 0.5, codecs: [['OPUS'], ['1']] })];
    // When the left rows are taken out
    const out = combineRows([
      { rows: kept, factor: 1 },
      { rows: left, factor: -1 },
    ]);
    // Then each group holds its sums less theirs
    expect(out).toEqual([
      row({
        v: [8, 6, 2],
        loss: 2,
        codecs: [
          ['G711', 'OPUS'],
          [6, 3],
        ],
      }),
      row({ kind: 'trunk', key: 'conn_a', v: [4, 4] }),
    ]);
  });

  it('keeps groups apart by kind, key, position and edge, and adds rows that only one side has', () => {
    const out = combineRows([
      { rows: [row({ kind: 'bin', key: '3600', pos: 120, v: [2] })], factor: 1 },
      {
        rows: [
          row({ kind: 'bin', key: '3600', pos: 121, v: [1] }),
          row({ kind: 'bin', key: '3600', pos: 120, v: [1], edge: 2 }),
        ],
        factor: 1,
      },
    ]);
    expect(out.map((r) => [r.pos, r.edge, r.v])).toEqual([
      [120, 1, [2]],
      [121, 1, [1]],
      [120, 2, [1]],
    ]);
  });

  it('leaves out a group whose sums all come to zero, and a codec whose count does', () => {
    const out = combineRows([
      {
        rows: [
          row({ kind: 'code', key: '486', v: [0, 0, 1] }),
          row({
            v: [3],
            codecs: [
              ['G711', 'G722'],
              [2, 1],
            ],
          }),
        ],
        factor: 1,
      },
      {
        rows: [row({ kind: 'code', key: '486', v: [0, 0, 1] }), row({ v: [1], codecs: [['G722'], [1]] })],
        factor: -1,
      },
    ]);
    expect(out).toEqual([row({ v: [2], codecs: [['G711'], [2]] })]);
  });
});
