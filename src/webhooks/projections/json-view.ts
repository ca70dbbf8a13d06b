import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { ProjectionView } from '../../projections/projection';

export const setJson = (key: string, value: unknown): WriteOp => ({ op: 'set', key, value: JSON.stringify(value) });

export async function readJson<T>(view: ProjectionView, key: string): Promise<T | null> {
  const raw = await view.get(key);
  return raw ? (JSON.parse(raw) as T) : null;
}
