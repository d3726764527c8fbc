/**
 * The route table is read by every function, the CDK app and the local stack alike, so it must stay pure data:
 * importing it may not load an AWS SDK client or the observability module (whose Powertools instances read the
 * environment once, when first imported).
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the route table', () => {
  it('imports no AWS SDK and no observability module', async () => {
    const result = await build({
      entryPoints: ['shared/routes/index.ts'], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.filter((i) => /node_modules\/@(aws-sdk|smithy|aws-lambda-powertools)\//.test(i) || i.endsWith('shared/observability.ts'))).toEqual([]);
  });
});
