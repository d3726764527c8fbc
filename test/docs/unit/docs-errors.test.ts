/**
 * The errors page names every error code: each literal code a `…Error('<code>', …)` of the platform's code gives,
 * and each code the API reference documents, must appear on `docs/errors.md` (as `` `code` ``).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiDocs } from '../../../shared/routes/docs/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const page = readFileSync(path.join(repoRoot, 'docs', 'errors.md'), 'utf8');
const listed = (code: string) => page.includes(`\`${code}\``);

function sourceCodes(): Set<string> {
  const codes = new Set<string>();
  const files = readdirSync(path.join(repoRoot, 'shared'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
  for (const file of files) {
    const text = readFileSync(path.join(repoRoot, 'shared', file), 'utf8');
    for (const m of text.matchAll(/Error\(\s*(?:\d{3},\s*)?'([a-z_]+\.[a-z_.]+)'/g)) codes.add(m[1]!);
  }
  return codes;
}

describe('docs/errors.md', () => {
  it('names every error code the source gives', () => {
    const codes = sourceCodes();
    expect(codes.size).toBeGreaterThan(150);
    expect([...codes].filter((c) => !listed(c))).toEqual([]);
  });

  it('names every dotted error code the API reference documents', () => {
    const documented = new Set(
      Object.values(apiDocs.operations)
        .flatMap((d) => d.errors ?? [])
        .map((e) => e.code)
        .filter((c) => c.includes('.')),
    );
    expect(documented.size).toBeGreaterThan(50);
    expect([...documented].filter((c) => !listed(c))).toEqual([]);
  });
});
