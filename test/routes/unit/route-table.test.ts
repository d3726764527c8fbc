/**
 * The route table is read by every function, the CDK app and the local stack alike, so it must stay pure data:
 * importing it may not load an AWS SDK client or the observability module (whose Powertools instances read the
 * environment once, when first imported).
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildSettings } from '../../../infra/constructs/bundling.ts';
import { routesOfFace } from '../../../shared/routes/index.ts';

describe('the route table', () => {
  it('imports no AWS SDK and no observability module', async () => {
    const result = await build({
      entryPoints: ['shared/routes/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.filter((i) => /node_modules\/@(aws-sdk|smithy|aws-lambda-powertools)\//.test(i) || i.endsWith('shared/platform/observability.ts'))).toEqual(
      [],
    );
  });
});

/**
 * Each route is its own export, a plain object, and the package declares no module side effects: a handler's
 * bundle carries its own route's definition and schemas, not the rest of its face's (nor what only those need,
 * such as the card validator, the tax tables or the IP address parser).
 */
describe('a handler bundle', () => {
  const bundled = async (entry: string) => {
    const result = await build({
      ...esbuildSettings({ xraySdk: false }),
      entryPoints: [entry],
      write: false,
      outfile: 'out.mjs',
      metafile: true,
      logLevel: 'silent',
    });
    const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
    const included = Object.entries(output!.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([file]) => file);
    return { included, code: result.outputFiles.find((f) => f.path.endsWith('.mjs'))!.text };
  };

  it('carries its own route and none of the other routes of its face', async () => {
    const { code } = await bundled('functions/people/merchants/get-merchant.ts');
    expect(code).toContain('"merchants-get"');
    const others = routesOfFace('merchant').filter((r) => r.handler !== 'functions/people/merchants/get-merchant.ts');
    expect(others.length).toBeGreaterThan(20);
    expect(others.filter((r) => code.includes(`"${r.name}"`)).map((r) => r.name)).toEqual([]);
  });

  it('carries no schema module, validator or table that only other routes use', async () => {
    const { included } = await bundled('functions/people/merchants/get-merchant.ts');
    expect(included.filter((f) => /shared\/schemas\/(checkout|plans|products|invoices|payouts|customers)\.ts$/.test(f))).toEqual([]);
    expect(included.filter((f) => /node_modules\/(card-validator|credit-card-type|ipaddr\.js|sales-tax)\//.test(f))).toEqual([]);
  });

  it('still carries what its own route needs (a card route keeps the validator)', async () => {
    const { included } = await bundled('functions/customers/card-tokens/create-token.ts');
    expect(included.some((f) => f.includes('node_modules/card-validator/'))).toBe(true);
  });
});
