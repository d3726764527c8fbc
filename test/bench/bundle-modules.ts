/**
 * What one function's bundle keeps of this project's code, and why: each module of `shared/` and `functions/` its
 * bundle keeps (bytes in the bundle, largest first) with the names the bundle's other modules import from it. esbuild
 * keeps every statement of a module that calls a function (every valibot schema is one) once any export of the module
 * is used, so a module kept for one small name (a value list, a pattern) shows up here with that name alone.
 *
 * Run: `npm run -s bench:bundle-modules -- <function name> [--min 300]` (the route's or consumer's name, as
 * `npm run bench:bundles` prints it). Prints a line a module, then ONE JSON line of the same.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';
import { repoRoot } from '../../infra/local/settings.ts';
import { functionsToBuild } from './functions.ts';

const { values, positionals } = parseArgs({ options: { min: { type: 'string', default: '300' } }, allowPositionals: true });
const name = positionals[0];
const entry = functionsToBuild().find((f) => f.name === name)?.entry;
if (!entry) {
  console.error(`No function named ${name ?? '(none given)'}: give one as npm run bench:bundles prints it.`);
  process.exit(2);
}

const result = await build({
  ...esbuildSettings({ xraySdk: false }),
  absWorkingDir: repoRoot,
  entryPoints: [entry],
  outfile: 'out/index.mjs',
  write: false,
  metafile: true,
  sourcemap: false,
  logLevel: 'warning',
});
const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint)!;
const kept = Object.entries(output.inputs).filter(([file, i]) => !file.includes('node_modules') && i.bytesInOutput > 0);
const keptFiles = new Set(kept.map(([file]) => file));

/** For each kept module, the names each other kept module imports from it (value imports; `* as x` for a namespace). */
const importedNames = new Map<string, Map<string, string[]>>();
for (const [file] of kept) {
  const source = readFileSync(path.join(repoRoot, file), 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))\s+from\s+'(\.[^']+)'/gm)) {
    if (m[1]) continue;
    const target = path.normalize(path.join(path.dirname(file), m[4]!));
    if (!keptFiles.has(target)) continue;
    const names = m[3]
      ? [`* as ${m[3]}`]
      : m[2]!
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '));
    if (!names.length) continue;
    const byImporter = importedNames.get(target) ?? new Map<string, string[]>();
    byImporter.set(file, names);
    importedNames.set(target, byImporter);
  }
}

const modules = kept
  .map(([file, i]) => ({ file, bytes: i.bytesInOutput, keptFor: Object.fromEntries(importedNames.get(file) ?? []) }))
  .filter((m) => m.bytes >= Number(values.min))
  .sort((a, b) => b.bytes - a.bytes);
console.log(`${name} (${entry}): ${output.bytes} bytes, of which this project's modules ${kept.reduce((s, [, i]) => s + i.bytesInOutput, 0)}`);
for (const m of modules) {
  console.log(`${String(m.bytes).padStart(7)}  ${m.file}`);
  for (const [importer, names] of Object.entries(m.keptFor)) console.log(`           ${importer}: ${names.join(', ')}`);
}
console.log(JSON.stringify({ function: name, entry, bytes: output.bytes, modules }));
