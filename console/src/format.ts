const number = new Intl.NumberFormat('en');

export const fmtInt = (value: number | null | undefined) => (value == null ? '–' : number.format(value));
export const fmtMs = (value: number | null | undefined) => (value == null ? '–' : `${number.format(value)} ms`);
export const fmtPct = (value: number | null | undefined) => (value == null ? '–' : `${value.toFixed(2)} %`);

/** Instants in UTC, as the API gives them, without the milliseconds. */
export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  return iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')
    .replace(/Z$/, ' UTC');
}

export function fmtDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
