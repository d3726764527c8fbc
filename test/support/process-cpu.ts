/** A process's CPU time so far (user + system), in ms, from `/proc/<pid>/stat` (Linux, USER_HZ 100); null when unreadable. */
import { readFileSync } from 'node:fs';

export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}
