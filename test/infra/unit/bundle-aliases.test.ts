/**
 * The modules that stand in for packages in every function bundle (infra/constructs/bundling.ts) answer as the
 * packages do where the bundles use them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import fc from 'fast-check';
import MnemonistLRUCache from 'mnemonist/lru-cache';
import { describe, expect, it } from 'vitest';
import { esbuildSettings } from '../../../infra/constructs/bundling.ts';
import { repoRoot } from '../../../infra/local/settings.ts';
import LRUCache from '../../../infra/constructs/lru-cache.ts';
import { EventStreamSerde, eventStreamSerdeProvider } from '../../../infra/constructs/no-event-streams.ts';
import { Md5, Sha256 } from '../../../infra/constructs/node-checksums.ts';
import { Md5Js, Md5Node, Sha256Js, Sha256Node } from '@smithy/core/checksum';

type Op = { op: 'get' | 'peek' | 'has'; key: string } | { op: 'set'; key: string; value: number } | { op: 'clear' };

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), key, value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('get' as const, 'peek' as const, 'has' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
);

describe("lru-cache.ts, in place of mnemonist's LRU cache (the DynamoDB client's endpoint cache)", () => {
  it('answers every sequence of gets, peeks, sets and clears as mnemonist does, evicting the same entries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const ours = new LRUCache<string, number>(capacity);
        const theirs = new MnemonistLRUCache<string, number>(capacity);
        for (const o of ops) {
          if (o.op === 'set') {
            ours.set(o.key, o.value);
            theirs.set(o.key, o.value);
          } else if (o.op === 'clear') {
            ours.clear();
            theirs.clear();
          } else {
            expect(ours[o.op](o.key), `${o.op}(${o.key})`).toEqual(theirs[o.op](o.key));
          }
          expect(ours.size).toBe(theirs.size);
        }
        // The same entries are left, whatever was read last.
        for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) expect(ours.peek(k)).toEqual(theirs.peek(k));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a capacity that is not a positive number, as mnemonist does', () => {
    for (const capacity of [0, -1, '3']) {
      expect(() => new LRUCache(capacity as number)).toThrow(/capacity should be positive number/);
      expect(() => new MnemonistLRUCache(capacity as number)).toThrow(/capacity should be positive number/);
    }
  });
});

interface Hasher {
  digestLength: number;
  update(data: string | Uint8Array): void;
  digest(): Promise<Uint8Array>;
  reset(): void;
}

describe("node-checksums.ts, in place of the SDK's checksums (SigV4's SHA-256, SQS's MD5)", () => {
  const data = fc.oneof(fc.string({ unit: 'grapheme' }), fc.uint8Array({ maxLength: 200 }));
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

  it("hash and sign every input as the SDK's Node and JavaScript hashes do: in parts, again after more data, and after a reset", async () => {
    // SigV4 signs with a non-empty key (the SDK's Node class takes an empty one for none).
    const key = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1 }), fc.uint8Array({ minLength: 1, maxLength: 80 }));
    await fc.assert(
      fc.asyncProperty(fc.array(data, { maxLength: 5 }), data, fc.option(key, { nil: undefined }), async (parts, more, secret) => {
        // The SDK's hashes take text too (SigV4 hashes strings), though their type says bytes.
        const kinds: { ours: Hasher; sdk: Hasher[]; once: boolean }[] = [
          { ours: new Sha256(secret), sdk: [new Sha256Node(secret), new Sha256Js(secret)] as Hasher[], once: secret !== undefined },
          { ours: new Md5(), sdk: [new Md5Node(), new Md5Js()] as Hasher[], once: false },
        ];
        for (const { ours, sdk, once } of kinds) {
          let all = [ours, ...sdk];
          const digests = async () => new Set(await Promise.all(all.map(async (h) => hex(await h.digest()))));
          const update = (d: (typeof parts)[number]) => {
            for (const h of all) h.update(d);
          };
          for (const part of parts) update(part);
          expect(new Set(all.map((h) => h.digestLength)).size).toBe(1);
          expect((await digests()).size).toBe(1);
          // A hash takes more data after a digest (an HMAC is digested once).
          if (!once) {
            update(more);
            expect((await digests()).size).toBe(1);
          }
          // Reset, an HMAC starts again as the Node class's does (the JavaScript one's stays finished).
          if (once) all = [ours, sdk[0]!];
          for (const h of all) h.reset();
          update(more);
          expect((await digests()).size).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses more data for an HMAC already digested, as the SDK does', async () => {
    const hmac = new Sha256('key');
    hmac.update('data');
    await hmac.digest();
    expect(() => hmac.update('more')).toThrow('Attempted to update an already finished hash.');
  });
});

describe('no-event-streams.ts, in place of the SDK event-stream codec', () => {
  it('refuses, naming why, if an operation ever asks for the codec', () => {
    expect(() => new EventStreamSerde()).toThrow(/event-stream codec is not bundled/);
    expect(() => eventStreamSerdeProvider()).toThrow(/event-stream codec is not bundled/);
  });
});

describe('a DynamoDB client bundled with the stand-ins', () => {
  it('sends a request and reads its answer on the AWS endpoint path, as a deployed function does', async () => {
    // test/infra/fixtures/aws-endpoint-client.ts: no custom endpoint (the local stack's bundles all have one), its
    // request handler answering in process.
    const dir = mkdtempSync(path.join(tmpdir(), 'mor-aliases-'));
    try {
      const outfile = path.join(dir, 'index.mjs');
      const { metafile } = await build({
        ...esbuildSettings({ xraySdk: false }),
        absWorkingDir: repoRoot,
        entryPoints: ['test/infra/fixtures/aws-endpoint-client.ts'],
        outfile,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(metafile.inputs);
      expect(inputs).toEqual(
        expect.arrayContaining(['infra/constructs/no-event-streams.ts', 'infra/constructs/lru-cache.ts', 'infra/constructs/node-checksums.ts']),
      );
      expect(inputs.filter((i) => /node_modules\/(mnemonist|@smithy\/core\/dist-es\/submodules\/(event-streams|checksum))\//.test(i))).toEqual([]);
      // In a process of its own, without the test run's endpoints (AWS_ENDPOINT_URL_*), as in AWS.
      const script = `const { getOne } = await import(${JSON.stringify(pathToFileURL(outfile).href)}); process.stdout.write(JSON.stringify(await getOne()));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: process.env.PATH, AWS_EC2_METADATA_DISABLED: 'true' },
        timeout: 20_000,
      });
      expect(JSON.parse(stdout)).toEqual({
        item: { pk: { S: 'ITEM' }, amountMinor: { N: '1234' } },
        sent: ['dynamodb.eu-west-1.amazonaws.com DynamoDB_20120810.GetItem'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
