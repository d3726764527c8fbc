/**
 * Synthesizes a stage in-process (the way `cdk synth --context stage=<stage>` does) and gives the tests
 * each stack's template plus small readers over CloudFormation JSON. Bundling runs at construction time,
 * so a test file synthesizes each stage once (in `beforeAll`) and shares one output directory between its
 * stages: the CDK asset cache then bundles each entry file only once per file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp, type BuildAppOptions } from '../../infra/app.ts';

/** Synthesis with bundling takes seconds: hooks that synthesize get this timeout. */
export const synthTimeout = 300_000;

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export type Resource = { Type: string; Properties?: Record<string, any>; [key: string]: any };
export type Resources = Record<string, Resource>;

export interface SynthesizedStage {
  readonly built: ReturnType<typeof buildApp>;
  /** Template of every stack, by stack name. */
  readonly templates: ReadonlyMap<string, Template>;
  readonly outdir: string;
}

export function tempOutdir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'mor-infra-test-'));
}

export function removeOutdir(outdir: string | undefined): void {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
}

/**
 * The context `cdk.json` gives every `cdk synth` (the feature flags), without its default stage: in-process apps
 * get it too, so the tests synthesize what the CLI synthesizes.
 */
export function cdkJsonContext(): Record<string, unknown> {
  const { context = {} } = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const { stage: _stage, ...rest } = context;
  return rest;
}

export function synthesize(stage: string, context: Record<string, unknown>, options: BuildAppOptions & { outdir: string }): SynthesizedStage {
  const built = buildApp(stage, { ...cdkJsonContext(), ...context }, { processEnv: {}, ...options });
  const templates = new Map<string, Template>();
  for (const child of built.app.node.children) {
    if (Stack.isStack(child)) templates.set(child.stackName, Template.fromStack(child));
  }
  return { built, templates, outdir: options.outdir };
}

export const resourcesOf = (template: Template): Resources => template.toJSON().Resources ?? {};

/** `compute` of an object (a template, a stage: never changed once synthesized), computed on its first use only. */
export function onceEach<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const done = new WeakMap<K, V>();
  return (key) => {
    if (!done.has(key)) done.set(key, compute(key));
    return done.get(key)!;
  };
}

/** `items` in groups by `keyOf`, each group in the items' order. */
export function groupedBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(item);
  }
  return groups;
}

/** Each template's resources by type. */
const resourcesByType = onceEach((template: Template) => groupedBy(Object.entries(resourcesOf(template)), ([, r]) => r.Type));

export function resourcesOfType(template: Template, type: string): [string, Resource][] {
  return [...(resourcesByType(template).get(type) ?? [])];
}

/** Every resource of `type` in any stack, with its stack name. */
export function allOfType(templates: ReadonlyMap<string, Template>, type: string): { stack: string; id: string; resource: Resource }[] {
  return [...templates].flatMap(([stack, t]) => resourcesOfType(t, type).map(([id, resource]) => ({ stack, id, resource })));
}

/** `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attr] }` → id. */
export function refTarget(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.Ref === 'string') return v.Ref;
    const getAtt = v['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  }
  return undefined;
}

/** The value behind a `{ 'Fn::ImportValue': name }`: the exporting stack's output value. */
export function importedValue(templates: ReadonlyMap<string, Template>, value: unknown): { stack: string; value: unknown } | undefined {
  const name = (value as Record<string, unknown> | undefined)?.['Fn::ImportValue'];
  if (typeof name !== 'string') return undefined;
  const found = exportsByName(templates).get(name)?.[0];
  return found && { stack: found.stack, value: found.value };
}

/** The exports of a stage's stacks by name, each with its stack, in the stacks' and outputs' order. */
const exportsByName = onceEach((templates: ReadonlyMap<string, Template>) =>
  groupedBy(
    [...templates].flatMap(([stack, t]) =>
      Object.values<any>(t.toJSON().Outputs ?? {}).map((output) => ({ name: output.Export?.Name, stack, value: output.Value })),
    ),
    (e) => e.name,
  ),
);

/** IAM actions granted to the role of a function, across the policies attached to that role. */
export function actionsOfRole(template: Template, roleId: string): Set<string> {
  const actions = new Set<string>();
  for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
    const roles: unknown[] = policy.Properties?.Roles ?? [];
    if (!roles.some((r) => refTarget(r) === roleId)) continue;
    for (const statement of policy.Properties?.PolicyDocument?.Statement ?? []) {
      for (const action of [statement.Action].flat()) actions.add(action);
    }
  }
  return actions;
}

/** Statements granted to the role of a function. */
export function statementsOfRole(template: Template, roleId: string): any[] {
  return resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties?.Roles ?? []).some((r: unknown) => refTarget(r) === roleId))
    .flatMap(([, p]) => p.Properties?.PolicyDocument?.Statement ?? []);
}

/** The asset directory holding the bundle of a `AWS::Lambda::Function` resource. */
export function bundleDirOf(outdir: string, fn: Resource): string {
  const key: unknown = fn.Properties?.Code?.S3Key;
  if (typeof key !== 'string' || !key.endsWith('.zip')) throw new Error(`Function code is not a zip asset: ${JSON.stringify(fn.Properties?.Code)}`);
  return path.join(outdir, `asset.${key.slice(0, -'.zip'.length)}`);
}

/**
 * Packages a bundle took from more than one install location (nested copies of different versions) or in
 * both module formats (`dist-cjs` and `dist-es`), judged from the bundle's source map `sources`.
 */
export function packagesBundledTwice(sources: readonly string[]): string[] {
  const roots = new Map<string, Set<string>>();
  const formats = new Map<string, Set<string>>();
  for (const source of sources) {
    const at = source.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const parts = source.slice(at + 'node_modules/'.length).split('/');
    const nameParts = parts[0]!.startsWith('@') ? 2 : 1;
    const name = parts.slice(0, nameParts).join('/');
    if (!roots.has(name)) roots.set(name, new Set());
    if (!formats.has(name)) formats.set(name, new Set());
    roots.get(name)!.add(source.slice(0, at));
    const dist = parts[nameParts];
    if (dist === 'dist-cjs' || dist === 'dist-es') formats.get(name)!.add(dist);
  }
  return [...roots.keys()].filter((name) => roots.get(name)!.size > 1 || formats.get(name)!.size > 1);
}
