/**
 * Every function bundle of an app from ONE esbuild build, instead of one build per function.
 *
 * The app plans its functions before any stack is built (`planFunctionBundles`, called by `addPlatform`): each
 * function's entry and the files copied beside its bundle. The first function whose code the CDK asks for
 * (`writeFunctionBundle`, from the construct's local bundling) builds the bundles of every planned entry at once: one
 * esbuild build per bundle setting (the X-Ray SDK on or off) with an entry point per function and `splitting` off,
 * so each output is a self-contained bundle, and a metafile. esbuild then resolves, reads and parses every module
 * (the AWS SDK, the shared code) once for all functions instead of once per function.
 *
 * Each bundle is written to its own directory beside the CDK's bundling directories (a child of the cloud assembly
 * directory, like them), so its source map's `sources` (relative to the bundle) are the very paths a build of that
 * function alone writes: the bundles are byte for byte those of `buildFunctionBundle` (a test holds it). A
 * function's bundling then only moves (or, when another planned function still needs the same bundle, copies) the two
 * files into the CDK's directory; the CDK hashes and stages them as before, so asset hashes are unchanged.
 *
 * A function the plan does not know (a construct used on its own, a bundle already taken), and every function when
 * the CLI bundles only some stacks (`cdk deploy -e <stack>`), is built on its own, with the same settings.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';
import type { IConstruct } from 'constructs';
import { type BundleOptions, esbuildSettings } from './bundling.ts';

/** Root of the repository: entries and assets are relative to it. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The files of a function bundle, in its directory. */
export const bundleFiles = ['index.mjs', 'index.mjs.map'] as const;

/** The context key through which the CDK CLI names the stacks it bundles (`["**"]`: all of them). */
const bundlingStacksContext = 'aws:cdk:bundling-stacks';

/** The directories the one build writes its bundles to start with this, in the cloud assembly directory. */
export const bundleDirPrefix = 'bundling-batch-';

/** A function as its stack will build it: its entry (repository-relative) and the files copied beside its bundle. */
export interface PlannedFunction {
  readonly entry: string;
  readonly assets?: readonly string[];
}

/** One bundle of the one build: its directory and its metafile (what a build of that function alone reports). */
export interface BuiltBundle {
  readonly dir: string;
  readonly metafile: Metafile;
}

/** esbuild's options of a bundle written to `outfile` (a build of one function) or to `outdir` (the one build). */
function buildOptions(options: BundleOptions) {
  return { ...esbuildSettings(options), absWorkingDir: repoRoot, logLevel: 'warning' as const, metafile: true as const };
}

/** Builds the bundle of `entry` alone into `outputDir` (`index.mjs` and its map). */
export function buildFunctionBundle(entry: string, options: BundleOptions, outputDir: string): Metafile {
  return buildSync({ ...buildOptions(options), entryPoints: [path.join(repoRoot, entry)], outfile: path.join(outputDir, bundleFiles[0]) }).metafile;
}

/** The directory (a child of `outdir`) the one build writes the bundle of `entry` to. */
function bundleDirFor(outdir: string, entry: string, { xraySdk }: BundleOptions): string {
  const hash = createHash('sha256').update(`${xraySdk}\0${entry}`).digest('hex').slice(0, 16);
  return path.join(outdir, `${bundleDirPrefix}${hash}`);
}

/**
 * Builds the bundles of `entries` with ONE esbuild build, each into its own directory under `outdir` (where the CDK
 * bundles, so the source maps' paths are those of a bundle built there alone), with each bundle's own metafile.
 */
export function buildFunctionBundles(entries: readonly string[], options: BundleOptions, outdir: string): Map<string, BuiltBundle> {
  const unique = [...new Set(entries)];
  const dirs = new Map(unique.map((entry) => [entry, bundleDirFor(outdir, entry, options)]));
  for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
  const { metafile } = buildSync({
    ...buildOptions(options),
    entryPoints: Object.fromEntries(unique.map((entry) => [path.relative(outdir, path.join(dirs.get(entry)!, 'index')), path.join(repoRoot, entry)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    // Every bundle self-contained, as built alone: no chunk shared between functions.
    splitting: false,
  });
  return new Map(unique.map((entry) => [entry, { dir: dirs.get(entry)!, metafile: metafileOf(metafile, path.join(dirs.get(entry)!, bundleFiles[0])) }]));
}

/**
 * The part of the one build's metafile that is one bundle's: its output and source map, and the inputs reachable from
 * its entry (the inputs a build of it alone reports).
 */
function metafileOf(metafile: Metafile, file: string): Metafile {
  const output = path.relative(repoRoot, file).split(path.sep).join('/');
  const map = `${output}.map`;
  const outputs: Metafile['outputs'] = { ...(metafile.outputs[map] ? { [map]: metafile.outputs[map] } : {}), [output]: metafile.outputs[output]! };
  const entryPoint = metafile.outputs[output]?.entryPoint;
  if (!entryPoint) throw new Error(`The bundle build wrote no ${output}`);
  const inputs: Metafile['inputs'] = {};
  const pending = [entryPoint];
  for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
    const read = metafile.inputs[input];
    if (inputs[input] || !read) continue;
    inputs[input] = read;
    for (const imported of read.imports) if (!imported.external) pending.push(imported.path);
  }
  return { inputs, outputs };
}

/** The functions of an app, per app; and the bundles built in this process, per cloud assembly directory and options. */
const plans = new WeakMap<IConstruct, Plan>();
const builtBundles = new Map<string, Map<string, Built>>();
/** The esbuild builds of function bundles this process has run. */
const builds: FunctionBundleBuild[] = [];

interface Plan {
  /** The asset sets (`assetsKey`) of the functions of each entry. */
  readonly assetSets: ReadonlyMap<string, ReadonlySet<string>>;
  /** False when the CLI bundles only some stacks: then each function is built on its own, as only it is needed. */
  readonly allStacks: boolean;
  /** The cloud assembly directories and options (`planKey`) the plan's bundles have been built for. */
  readonly prepared: Set<string>;
}

interface Built {
  /** The bundle's directory, until the last function that needs it has taken its files. */
  dir?: string;
  /** The asset sets of the planned functions that have not taken the bundle yet. */
  readonly waiting: Set<string>;
  /** The asset sets that have taken it (the CDK's asset cache answers for them from then on). */
  readonly taken: Set<string>;
}

/** An esbuild build of function bundles: how many entries, and whether it was the one build of an app's functions. */
export interface FunctionBundleBuild {
  readonly entries: number;
  readonly together: boolean;
  readonly xraySdk: boolean;
}

/** The esbuild builds of function bundles this process has run, in order. */
export const functionBundleBuilds = (): readonly FunctionBundleBuild[] => [...builds];

/** How the CDK tells two functions' bundling apart: their files beside the bundle. */
const assetsKey = (assets: readonly string[]): string => JSON.stringify(assets);

const bundleKey = (entry: string, { xraySdk }: BundleOptions): string => `${xraySdk}\0${entry}`;

/** Plans the functions of the app of `scope`, before any of them is built: their bundles are then built together. */
export function planFunctionBundles(scope: IConstruct, functions: readonly PlannedFunction[]): void {
  const assetSets = new Map<string, Set<string>>();
  for (const fn of functions) {
    if (!assetSets.has(fn.entry)) assetSets.set(fn.entry, new Set());
    assetSets.get(fn.entry)!.add(assetsKey(fn.assets ?? []));
  }
  const stacks: unknown = scope.node.tryGetContext(bundlingStacksContext) ?? ['**'];
  plans.set(scope.node.root, { assetSets, allStacks: Array.isArray(stacks) && stacks.length === 1 && stacks[0] === '**', prepared: new Set() });
}

/**
 * Builds the bundles of `plan` that no function has taken yet in `outdir` with ONE esbuild build; a bundle built
 * already (by an earlier app of this process) and still there waits for this plan's functions too.
 */
function prepare(plan: Plan, options: BundleOptions, outdir: string, bundles: Map<string, Built>): void {
  const toBuild: string[] = [];
  for (const [entry, sets] of plan.assetSets) {
    const known = bundles.get(bundleKey(entry, options));
    const untaken = [...sets].filter((set) => !known?.taken.has(set));
    if (untaken.length === 0) continue;
    if (known?.dir) for (const set of untaken) known.waiting.add(set);
    else toBuild.push(entry);
  }
  if (toBuild.length === 0) return;
  for (const [entry, bundle] of buildFunctionBundles(toBuild, options, outdir)) {
    const known = bundles.get(bundleKey(entry, options));
    const untaken = [...plan.assetSets.get(entry)!].filter((set) => !known?.taken.has(set));
    bundles.set(bundleKey(entry, options), { dir: bundle.dir, waiting: new Set(untaken), taken: new Set(known?.taken) });
  }
  builds.push({ entries: toBuild.length, together: true, xraySdk: options.xraySdk });
}

/**
 * Writes the bundle of `entry` (`index.mjs` and its map) into `outputDir`, the CDK's bundling directory of a function
 * of the app of `scope` that has `assets` beside its bundle: from the app's one build (run now if it has not run yet
 * for these options), or built on its own when the plan does not have it.
 */
export function writeFunctionBundle(scope: IConstruct, entry: string, options: BundleOptions, assets: readonly string[], outputDir: string): void {
  const outdir = path.dirname(outputDir);
  if (!builtBundles.has(outdir)) builtBundles.set(outdir, new Map());
  const bundles = builtBundles.get(outdir)!;
  const plan = plans.get(scope.node.root);
  const planKey = `${outdir}\0${options.xraySdk}`;
  if (plan?.allStacks && !plan.prepared.has(planKey)) {
    plan.prepared.add(planKey);
    prepare(plan, options, outdir, bundles);
  }
  const key = assetsKey(assets);
  const bundle = bundles.get(bundleKey(entry, options));
  if (!bundle?.dir || !bundleFiles.every((file) => existsSync(path.join(bundle.dir!, file)))) {
    buildFunctionBundle(entry, options, outputDir);
    builds.push({ entries: 1, together: false, xraySdk: options.xraySdk });
    if (bundle) bundle.taken.add(key);
    else bundles.set(bundleKey(entry, options), { waiting: new Set(), taken: new Set([key]) });
    return;
  }
  bundle.waiting.delete(key);
  bundle.taken.add(key);
  // The last function that needs the bundle takes its files; the ones before it take copies.
  const last = bundle.waiting.size === 0;
  for (const file of bundleFiles) (last ? renameSync : copyFileSync)(path.join(bundle.dir, file), path.join(outputDir, file));
  if (last) {
    rmSync(bundle.dir, { recursive: true, force: true });
    bundle.dir = undefined;
  }
}
