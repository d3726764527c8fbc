/**
 * The entity kit against ElectroDB, on one entity: the product read by id in the floor handler (middy, valibot, the
 * DynamoDB document client), once declared with `shared/platform/db/entity.ts` (a valibot item schema over the
 * table's key kit) and once as an ElectroDB entity, each bundle built with the functions' esbuild settings and
 * measured against the floor (`test/bench/floor-handler.ts`). The bundle goal is "every ordinary function ≤ the
 * floor handler" plus what the function's own work needs, so a kit's cost is its bundle over the floor.
 *
 * Run: `npm run -s bench:entities`. Prints ONE JSON line. Sizes do not depend on the machine.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';

const here = import.meta.dirname;
const out = mkdtempSync(path.join(tmpdir(), 'mor-entities-'));
const entries = { floor: 'floor-handler.ts', kit: 'entities/kit-product.ts', electrodb: 'entities/electrodb-product.ts' } as const;
const sizes: Record<string, { bytes: number; gzipBytes: number }> = {};
try {
  for (const [name, file] of Object.entries(entries)) {
    const outfile = path.join(out, `${name}.mjs`);
    await build({ ...esbuildSettings({ xraySdk: false }), entryPoints: [path.join(here, file)], outfile, logLevel: 'error' });
    sizes[name] = { bytes: statSync(outfile).size, gzipBytes: gzipSync(readFileSync(outfile)).length };
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
const ratio = (name: string) => Number((sizes[name]!.bytes / sizes.floor!.bytes).toFixed(3));
console.log(
  JSON.stringify({
    ...sizes,
    kitToFloor: ratio('kit'),
    electrodbToFloor: ratio('electrodb'),
    chosen: ratio('kit') <= ratio('electrodb') ? 'kit' : 'electrodb',
  }),
);
