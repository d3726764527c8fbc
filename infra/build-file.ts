import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a generated file of the build directory. A file whose bytes are already right is left alone; otherwise it
 * is replaced in one rename, so a process reading it (another local stack, a bundling step) never sees half a file.
 */
export function writeBuildFile(file: string, bytes: Uint8Array): void {
  let current: Buffer | undefined;
  try {
    current = readFileSync(file);
  } catch {
    current = undefined;
  }
  if (current?.equals(bytes)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}
