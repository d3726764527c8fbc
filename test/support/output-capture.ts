/**
 * Keeps a copy of everything a test process writes to stdout and stderr — the functions' Powertools log lines
 * included — in a file of the run's capture folder, so the end of the run can scan every line for card data.
 * The functions' JSON log lines go to the file only, keeping the terminal readable; everything else is also
 * written as usual.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { holdOnce } from './held-once.ts';

const installed = Symbol.for('mor.outputCapture');

/** A Powertools log line (`{"level":"INFO",…,"service":"mor",…}`). */
const isFunctionLog = (text: string) => text.startsWith('{"level":') && text.includes('"service":"mor"');

export function captureOutput(dir: string, name: string): void {
  const proc = process as NodeJS.Process & { [installed]?: boolean };
  if (proc[installed]) return;
  proc[installed] = true;
  const file = path.join(dir, `${name}-${process.pid}.log`);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      appendFileSync(file, text);
      if (!isFunctionLog(text)) return write(chunk, ...rest);
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }
}

/**
 * The run's capture folder, one for every global setup of this process (the stack's and the unit tests', which run
 * side by side in `npm test`): made by the first to ask, removed when the last lets go, so the stack's audit reads
 * every test process's lines, the unit tests' too.
 */
export function runCaptureDir(): { dir: string; release: () => Promise<void> } {
  const { value: dir, release } = holdOnce(
    'mor.runCaptureDir',
    () => mkdtempSync(path.join(os.tmpdir(), 'mor-test-output-')),
    (made) => rmSync(made, { recursive: true, force: true }),
  );
  return { dir, release };
}
