import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { type CpuProfile, type ProfiledRun, summarizeCpuProfiles } from '../lib/cpu-profile';

/**
 * A V8 CPU profile of this process around `work` only (not the seeding nor the baseline), written
 * to ./bench-profiles/ for Chrome DevTools or speedscope, and summarized. Without `enabled`, just
 * runs `work`.
 */
export async function profiled<T>(
  enabled: boolean,
  name: string,
  work: () => Promise<T>,
): Promise<[T, ProfiledRun | null]> {
  if (!enabled) return [await work(), null];
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    const dir = join(process.cwd(), 'bench-profiles');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return [
      result,
      { files: [file], missing: [], summary: summarizeCpuProfiles([{ profile: profile as CpuProfile }]) },
    ];
  } finally {
    session.disconnect();
  }
}
