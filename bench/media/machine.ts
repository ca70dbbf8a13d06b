import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const CLK_TCK = 100;

/** CPU seconds (user + system, every thread) a process has used, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** The machine's idle and total CPU time (all cores), from /proc/stat, in clock ticks. */
function machineTicks(): { idle: number; total: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const all = lines[0].split(/\s+/).slice(1).map(Number);
  return {
    idle: all[3] + (all[4] ?? 0),
    total: all.reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0),
    cores: lines.filter((l) => /^cpu\d+ /.test(l)).length,
  };
}

/**
 * What the rest of the machine left: measure() before a window, then the cores other processes
 * used during it (busy cores minus this benchmark's own processes) and the 1-minute load average.
 */
export function machineWindow(): { end(ownCores: number): { othersCores: number; load1: number; cores: number } } {
  const start = machineTicks();
  return {
    end: (ownCores) => {
      const stop = machineTicks();
      const total = stop.total - start.total;
      const busyCores = total > 0 ? (stop.cores * (total - (stop.idle - start.idle))) / total : 0;
      return { othersCores: Math.max(0, busyCores - ownCores), load1: loadavg()[0], cores: stop.cores };
    },
  };
}
