/**
 * Benchmark of a synth: times `cdk synth --context stage=sandbox -q` as an operator runs it (the pinned CLI of
 * node_modules, which runs the app of cdk.json), into a fresh cloud assembly directory each run, so every function is
 * bundled as on a clean checkout or in CI. Run: `npm run -s bench:synth [-- --runs 3]` (1 by default; with more, the
 * median).
 *
 * Prints one JSON line: the synth's wall-clock seconds (`synthSeconds`), the goal beside it (≤ 40 s on the 2-core
 * development machine), whether `-q` printed nothing but the CLI's own summary (`quiet`; for an app of several stacks
 * the CLI always ends with "Successfully synthesized to …" and "Supply a stack id (…) to display its template.",
 * whatever `-q` says: counted apart as `cliSummaryLines`, any other line is printed), how many functions and function
 * bundles the assembly holds, and the machine's CPU count and load average, since the seconds depend on what else
 * runs. A failed synth prints its output and exits 1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { repoRoot } from '../../infra/local/settings.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const runs = Math.max(1, Number(values.runs));
const GOAL_SYNTH_SECONDS = 40;
const execFileAsync = promisify(execFile);

/** The lines the CLI itself ends a synth of several stacks with, `-q` or not. */
const cliSummary = [/^Successfully synthesized to /, /^Supply a stack id \(.*\) to display its template\.$/];

interface Run {
  seconds: number;
  /** What the synth printed (stdout and stderr) besides the CLI's summary, line by line. */
  printed: string[];
  cliSummaryLines: number;
  functions: number;
  bundles: number;
}

/** One `cdk synth --context stage=sandbox -q` into a fresh directory: its seconds, what it printed, what it made. */
async function synth(): Promise<Run> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'mor-bench-synth-'));
  try {
    const started = performance.now();
    const { stdout, stderr } = await execFileAsync(
      path.join(repoRoot, 'node_modules', '.bin', 'cdk'),
      ['synth', '--context', 'stage=sandbox', '-q', '-o', outdir],
      {
        cwd: repoRoot,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
      console.error('cdk synth failed');
      process.exit(1);
    });
    const seconds = (performance.now() - started) / 1000;
    const templates = readdirSync(outdir).filter((f) => f.endsWith('.template.json'));
    const functions = templates
      .flatMap((f) => Object.values<{ Type: string }>(JSON.parse(readFileSync(path.join(outdir, f), 'utf8')).Resources ?? {}))
      .filter((r) => r.Type === 'AWS::Lambda::Function').length;
    const bundles = readdirSync(outdir).filter((d) => d.startsWith('asset.')).length;
    // Without colors: the CLI colors its summary when it writes to a terminal only, but a line is judged plain.
    const lines = `${stdout}${stderr}`
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const summary = lines.filter((line) => cliSummary.some((pattern) => pattern.test(line)));
    return { seconds, printed: lines.filter((line) => !summary.includes(line)), cliSummaryLines: summary.length, functions, bundles };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));
const results: Run[] = [];
for (let i = 0; i < runs; i++) results.push(await synth());
const synthSeconds = Number(median(results.map((r) => r.seconds)).toFixed(1));
const printed = results.map((r) => r.printed).find((lines) => lines.length > 0);
if (printed) console.error(`cdk synth -q printed:\n${printed.slice(0, 40).join('\n')}`);
console.log(
  JSON.stringify({
    benchmark: 'synth',
    command: 'cdk synth --context stage=sandbox -q',
    synthSeconds,
    runsSeconds: results.map((r) => Number(r.seconds.toFixed(1))),
    goal: { synthSecondsAtMost: GOAL_SYNTH_SECONDS, why: 'a synth an operator does not wait for (2 cores)' },
    met: synthSeconds <= GOAL_SYNTH_SECONDS,
    quiet: !printed,
    cliSummaryLines: results[0]!.cliSummaryLines,
    functions: results[0]!.functions,
    bundles: results[0]!.bundles,
    runs,
    cpus: cpus().length,
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))),
  }),
);
