import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedStatuses, markdownDocuments, README_WORLD, shBlocks, shellBlocks, unquotedPlaceholders } from '../../support/sh-examples.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

describe('runnable sh examples of a Markdown document', () => {
  it('takes every sh block except those marked no-run, with the heading they are under', () => {
    const md = [
      '# Page',
      '## First',
      '```sh',
      'curl -s $BASE/health',
      '```',
      '<!-- no-run: starts a server -->',
      '```sh',
      'npm start',
      '```',
      '```js',
      'fetch(url)',
      '```',
      '## Second',
      '````sh',
      'echo ok',
      '````',
    ].join('\n');
    const { run, skipped } = shBlocks(md);
    expect(run.map((b) => [b.line, b.section, b.source])).toEqual([
      [3, 'First', 'curl -s $BASE/health'],
      [14, 'Second', 'echo ok'],
    ]);
    expect(skipped).toEqual([{ line: 7, reason: 'starts a server' }]);
  });

  it('reads the status documented after a command, trailing it, or none (any 2xx)', () => {
    const script = [
      "curl -s -X POST $M -H 'content-type: application/json' \\",
      '  -d \'{"name":"Shop #1"}\'',
      '# 201 {"id":"…"}',
      'curl -s $M/$ID     # 200 the merchant',
      'curl -s -X DELETE $M/$ID/api-keys/$K   # 204',
      'X=$(curl -s $BASE/health | jq -r .status)',
      '# {"status":"ok"}',
      '# 1. then',
      'echo "# 500 is not a comment"',
    ].join('\n');
    expect(documentedStatuses(script)).toEqual([201, 200, 204, null]);
  });

  it('counts each curl of a command, the documented status going to the last', () => {
    expect(documentedStatuses('A=$(curl -s $X | jq .id) && curl -s $Y/$A\n# 404 not found')).toEqual([null, 404]);
    expect(documentedStatuses('curl -s -d \'{"q":"curl me"}\' $X')).toEqual([null]);
  });
});

describe('the shell examples of README.md and docs/**/*.md', () => {
  const documents = markdownDocuments(repoRoot);

  it('cover README.md and every page of docs/, the design notes of docs/design/ included', () => {
    expect(documents[0]).toBe('README.md');
    expect(documents).toContain('docs/index.md');
    expect(documents.some((d) => d.startsWith('docs/design/'))).toBe(true);
  });

  it("run README.md's world from README.md, over documents that exist, each once", () => {
    expect(README_WORLD[0]).toBe('README.md');
    expect(README_WORLD.filter((d) => !existsSync(path.join(repoRoot, d)))).toEqual([]);
    expect(new Set(README_WORLD).size).toBe(README_WORLD.length);
    expect(README_WORLD.filter((d) => !documents.includes(d))).toEqual([]);
  });

  it('paste into a shell as they are: no <placeholder> the shell would read as a redirection', () => {
    const found = documents.flatMap((doc) =>
      shellBlocks(readFileSync(path.join(repoRoot, doc), 'utf8')).flatMap((block) =>
        unquotedPlaceholders(block.source).map((p) => `${doc}:${block.line + p.line} ${p.placeholder}`),
      ),
    );
    expect(found).toEqual([]);
    expect(documents.reduce((n, doc) => n + shellBlocks(readFileSync(path.join(repoRoot, doc), 'utf8')).length, 0)).toBeGreaterThan(100);
  });

  it('finds a placeholder outside quotes, comments and here-documents only', () => {
    const script = [
      'npm run -s admin -- listen --merchant <merchantId> --since 2h',
      'curl -s $BASE/v1/x/<id>/y -H "Authorization: Bearer <key>"   # <comment>',
      "echo '<quoted>' \"<also quoted>\" $(printf '%s' <inside>)",
      '# {"apiKey":"mor_test_<64 hex>"}',
      "cat > env.json <<'JSON'",
      '{ "a": "<in a here-document>" }',
      'JSON',
      'sort <input.txt >output.txt; diff <(ls) <(ls -a) 2>&1; cat <<<"<x>"',
      'echo "$(echo "<nested quotes>")" $X#<notAComment>',
    ].join('\n');
    expect(unquotedPlaceholders(script)).toEqual([
      { line: 1, placeholder: '<merchantId>' },
      { line: 2, placeholder: '<id>' },
      { line: 3, placeholder: '<inside>' },
      { line: 9, placeholder: '<notAComment>' },
    ]);
  });

  it('reads every shell fence: sh, bash, shell, zsh', () => {
    const md = ['```sh', 'a', '```', '```bash', 'b', '```', '```json', '{}', '```', '```zsh', 'c', '```'].join('\n');
    expect(shellBlocks(md)).toEqual([
      { line: 1, source: 'a' },
      { line: 4, source: 'b' },
      { line: 10, source: 'c' },
    ]);
  });
});
