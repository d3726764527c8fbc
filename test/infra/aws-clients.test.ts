/**
 * Which AWS SDK clients the function bundles carry: DynamoDB everywhere it is used, SQS in the three functions that queue
 * (the webhook fan-out, the renewal sweep and the stream relay) only, and no S3, SES or Secrets Manager client at all (their few calls are signed by shared/platform/aws/signed-fetch.ts).
 * Built with the esbuild settings of the CDK (infra/constructs/bundling.ts).
 */
import { globSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const signedOnly = /^@aws-sdk\/(client-s3|client-sesv2|client-secrets-manager|s3-request-presigner)(\/|$)/;
const sqsClient = /^@aws-sdk\/client-sqs(\/|$)/;
const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? '';

async function metafileOf(entryPoints: string[], options: { packagesExternal: boolean }): Promise<Metafile> {
  const result = await build({
    ...esbuildSettings({ xraySdk: false }),
    minify: false,
    sourcemap: false,
    ...(options.packagesExternal ? { packages: 'external' as const } : {}),
    absWorkingDir: repoRoot,
    entryPoints,
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

/** The packages each entry's bundle takes, by entry point. */
function packagesByEntry(metafile: Metafile, imported: (output: Metafile['outputs'][string]) => string[]): Map<string, Set<string>> {
  const byEntry = new Map<string, Set<string>>();
  for (const output of Object.values(metafile.outputs)) {
    if (output.entryPoint) byEntry.set(output.entryPoint, new Set(imported(output)));
  }
  return byEntry;
}

describe('the AWS clients of the function bundles', () => {
  it('no function imports an S3, SES or Secrets Manager client, and only the webhook fan-out, the renewal sweep and the stream relay import the SQS client', async () => {
    // Every function, our code only (packages left external): the SDK packages each bundle would import.
    const entries = globSync('functions/**/*.ts', { cwd: repoRoot });
    expect(entries.length).toBeGreaterThan(100);
    const byEntry = packagesByEntry(await metafileOf(entries, { packagesExternal: true }), (o) => o.imports.filter((i) => i.external).map((i) => i.path));
    expect(byEntry.size).toBe(entries.length);
    const offenders = [...byEntry].flatMap(([entry, pkgs]) => [...pkgs].filter((p) => signedOnly.test(p)).map((p) => `${entry}: ${p}`));
    expect(offenders).toEqual([]);
    const withSqs = [...byEntry].filter(([, pkgs]) => [...pkgs].some((p) => sqsClient.test(p))).map(([entry]) => entry);
    expect(withSqs.sort()).toEqual(['functions/subscriptions/sweep.ts', 'functions/system/stream-relay.ts', 'functions/webhooks/fan-out.ts']);
  }, 60_000);

  it('the full bundles of the functions that call S3, SES or Secrets Manager carry the signer instead of their clients, the sender no SQS client', async () => {
    const entries = [
      'functions/checkout/checkout-policies/create-upload.ts',
      'functions/checkout/checkout-policies/plan-policy-redirect.ts',
      'functions/webhooks/send.ts',
      'functions/customers/card-tokens/create-token.ts',
      'functions/webhooks/fan-out.ts',
    ];
    const byEntry = packagesByEntry(await metafileOf(entries, { packagesExternal: false }), (o) => Object.keys(o.inputs).map(packageOf).filter(Boolean));
    for (const entry of entries) {
      const pkgs = [...byEntry.get(entry)!];
      expect(pkgs, entry).toContain('@aws-sdk/client-dynamodb');
      // The fan-out signs nothing (esbuild leaves the sender's signing key out of it).
      if (entry !== 'functions/webhooks/fan-out.ts') expect(pkgs, entry).toContain('aws4fetch');
      expect(
        pkgs.filter((p) => signedOnly.test(p)),
        entry,
      ).toEqual([]);
      expect(
        pkgs.some((p) => sqsClient.test(p)),
        entry,
      ).toBe(entry === 'functions/webhooks/fan-out.ts');
    }
  }, 60_000);
});
