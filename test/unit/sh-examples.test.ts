import { describe, expect, it } from 'vitest';
import { documentedStatuses, shBlocks } from '../support/sh-examples.ts';

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
