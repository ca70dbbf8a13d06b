import { useState } from 'preact/hooks';
import { navigate } from '../router';
import { PRESETS, type RangeChoice } from './overview-data';

/** Preset ranges, or any dates with hourly or daily buckets; the choice lives in the URL. */
export function RangePicker({ range }: { range: RangeChoice }) {
  const [start, setStart] = useState(range.start.slice(0, 10));
  const [end, setEnd] = useState(range.end.slice(0, 10));
  const [granularity, setGranularity] = useState(range.granularity);
  const choose = (value: string) =>
    value === 'custom'
      ? navigate('/overview', { range: 'custom', start, end, granularity })
      : navigate('/overview', { range: value });
  return (
    <form
      class="range"
      onSubmit={(event) => {
        event.preventDefault();
        navigate('/overview', { range: 'custom', start, end, granularity });
      }}
    >
      <label>
        Range{' '}
        <select value={range.range} onChange={(event) => choose((event.target as HTMLSelectElement).value)}>
          {Object.entries(PRESETS).map(([value, preset]) => (
            <option value={value}>{preset.label}</option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </label>
      {range.range === 'custom' && (
        <>
          <label>
            From <input type="date" value={start} onInput={(e) => setStart((e.target as HTMLInputElement).value)} />
          </label>
          <label>
            To <input type="date" value={end} onInput={(e) => setEnd((e.target as HTMLInputElement).value)} />
          </label>
          <label>
            Buckets{' '}
            <select
              value={granularity}
              onChange={(e) => setGranularity((e.target as HTMLSelectElement).value as 'hourly' | 'daily')}
            >
              <option value="hourly">hourly</option>
              <option value="daily">daily</option>
            </select>
          </label>
          <button type="submit">Apply</button>
        </>
      )}
    </form>
  );
}
