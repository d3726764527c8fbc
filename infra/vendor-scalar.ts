/**
 * Puts the two files of Scalar's API reference the docs site uses — `dist/browser/standalone.js`, served by
 * `/docs/assets/scalar-<version>.js`, and the package's own `package.json` (its name, version and license) — from the
 * `@scalar/api-reference` tarball of the npm registry into `vendor/scalar-api-reference/`, byte for byte. The script
 * is self-contained (its dependencies are compiled into it); installing the package instead would install its 270
 * dependencies, over half of the files of `npm ci`, for this one file.
 *
 *   npm run vendor:scalar -- 1.76.0     # then set SCALAR_VERSION (shared/docs/docs-site.ts) to the same version
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scalarVendorDir } from './docs-site-asset.ts';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('Give the version to vendor: npm run vendor:scalar -- <major.minor.patch>');
  process.exit(2);
}
const files = ['package.json', 'dist/browser/standalone.js'];
const work = mkdtempSync(path.join(os.tmpdir(), 'scalar-'));
try {
  const tarball = execFileSync('npm', ['pack', `@scalar/api-reference@${version}`, '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim();
  execFileSync('tar', ['xzf', path.join(work, tarball), '-C', work, ...files.map((f) => `package/${f}`)]);
  for (const file of files) {
    const to = path.join(scalarVendorDir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(path.join(work, 'package', file), to);
  }
  console.log(`${path.relative(process.cwd(), scalarVendorDir)}: @scalar/api-reference ${version}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
