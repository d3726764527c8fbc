import { gunzipSync } from 'node:zlib';
import { route } from '../../shared/access/auth-none-page.ts';
import { acceptsGzip, SCALAR_SCRIPT_ASSET } from '../../shared/docs/docs-site.ts';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { readBuildAsset } from '../../shared/platform/build-assets.ts';

/** Scalar's script, compressed at build time: about 1.4 MB instead of 4.9 MB. */
const compressed = readBuildAsset(
  SCALAR_SCRIPT_ASSET,
  "Scalar's API reference script",
  'the CDK app and the local stack write it, or run `npx tsx infra/docs-site-asset.ts`',
);
let plain: string | undefined;
/** The script as text, for a client that takes no gzip (decompressed once per container, when first asked). */
const plainText = (): string => {
  plain ??= gunzipSync(compressed).toString('utf8');
  return plain;
};

/** Its path names its version, so it is cached for a year. */
const headers = { 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' };

export const handler = route(docsRoutes.scalarScript, ({ event }) =>
  acceptsGzip(event.headers['accept-encoding'])
    ? { status: 200, body: new Uint8Array(compressed), headers: { ...headers, 'content-encoding': 'gzip' } }
    : { status: 200, body: plainText(), headers },
);
