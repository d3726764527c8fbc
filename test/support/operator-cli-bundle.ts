/**
 * The operator CLI, `infra/admin/cli.ts` with everything it imports, bundled by esbuild into one file: a command run
 * from it no longer strips the types of some 270 files and loads some 980 modules one by one (about 0.3 s of CPU a
 * command instead of 0.6 s). Each command still runs in a `node` process of its own, with its own argv and
 * environment. `npm run admin` itself (`node infra/admin/cli.ts` on Node's type stripping) runs in the operator
 * CLI's --help test and in the other files' tests of the commands (`adminCli` in ./fixtures.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { esmRequireBanner } from '../../infra/constructs/bundling.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** Each source file keeps its own `import.meta.url` (and dirname, filename), as the CLI has them unbundled: it finds the repository, fonts and scripts by them. */
const ownLocation: Plugin = {
  name: 'own-import-meta-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const own = { url: pathToFileURL(args.path).href, dirname: path.dirname(args.path), filename: args.path };
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: keyof typeof own) => JSON.stringify(own[key])), loader: 'ts' };
    });
  },
};

/** Writes the bundle to `outfile`; answers esbuild's warnings (none expected: an import left out would be one). */
export async function bundleOperatorCli(outfile: string): Promise<string[]> {
  const { warnings } = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['infra/admin/cli.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // CommonJS packages inside an ES module call `require` for Node's built-ins (the banner of the function bundles).
    banner: { js: esmRequireBanner },
    plugins: [ownLocation],
    logLevel: 'silent',
  });
  return warnings.map((w) => w.text);
}
