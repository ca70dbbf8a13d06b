import type { OverviewRow } from './analytics.sql';

/** Rows to add up, each multiplied by `factor` (-1 takes rows out). */
export interface WeightedRows {
  rows: readonly OverviewRow[];
  factor: 1 | -1;
}

/**
 * The edges statement's rows of several reads added up, one row per (kind, key, pos, edge): each
 * Int64 sum, the loss sum and each codec count summed with its read's factor. So a kept edge's
 * rows plus (or minus) the raw rows of the instants between its start and the one asked for are
 * the rows of the edge asked for. Rows whose sums all come to zero are left out (every reader
 * treats a missing row and a row of zeros alike: the trunks, codes and codecs it lists are those
 * with a count above zero).
 */
export function combineRows(parts: readonly WeightedRows[]): OverviewRow[] {
  const byGroup = new Map<string, { row: OverviewRow; v: number[]; loss: number; codecs: Map<string, number> }>();
  for (const { rows, factor } of parts)
    for (const row of rows) {
      const group = JSON.stringify([row.kind, row.key, row.pos, Number(row.edge)]);
      let sum = byGroup.get(group);
      if (!sum) byGroup.set(group, (sum = { row, v: [], loss: 0, codecs: new Map() }));
      row.v.forEach((value, i) => (sum.v[i] = (sum.v[i] ?? 0) + factor * Number(value)));
      sum.loss += factor * Number(row.loss);
      const [names, counts] = row.codecs;
      names.forEach((name, i) => sum.codecs.set(name, (sum.codecs.get(name) ?? 0) + factor * Number(counts[i])));
    }
  const out: OverviewRow[] = [];
  for (const { row, v, loss, codecs } of byGroup.values()) {
    const kept = [...codecs].filter(([, n]) => n !== 0);
    if (loss === 0 && kept.length === 0 && v.every((value) => value === 0)) continue;
    out.push({ ...row, v, loss, codecs: [kept.map(([name]) => name), kept.map(([, n]) => n)] });
  }
  return out;
}
