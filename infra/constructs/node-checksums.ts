/**
 * Stands in for `@smithy/core/checksum` in every function bundle (an esbuild alias, see `bundling.ts`). The DynamoDB
 * and SQS clients take two names from it: `Sha256` (SigV4's payload hash and signing key) and `Md5` (SQS's message
 * checksums). The SDK's are Node's `crypto` behind a check that falls back to a JavaScript hash when Node has no
 * such algorithm, which Lambda's Node always has: the fallbacks (`Sha256Js`, `Md5Js`: 3.5–5.2 KB) were in every function.
 * These are the SDK's Node classes without the fallback, held to its answers by
 * `test/infra/unit/bundle-aliases.test.ts`; a name missing here fails the build.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type Data = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: Data): string | Buffer =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** A digest as the SDK's checksums answer it: the bytes, as a `Uint8Array` view of Node's buffer. */
const digestOf = (buffer: Buffer): Uint8Array => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** SHA-256, or HMAC-SHA-256 under `secret`: the SDK's `Sha256Node`. */
export class Sha256 {
  readonly digestLength = 32;
  readonly #secret: Data | undefined;
  #hash: Hash | Hmac;
  #finished = false;

  constructor(secret?: Data) {
    this.#secret = secret;
    this.#hash = this.#start();
  }

  update(data: Data): void {
    if (this.#finished) throw new Error('Attempted to update an already finished hash.');
    this.#hash.update(bytesOf(data));
  }

  async digest(): Promise<Uint8Array> {
    // An HMAC is digested once; a hash is digested from a copy, so it can take more data after.
    if (this.#secret) {
      this.#finished = true;
      return digestOf(this.#hash.digest());
    }
    return digestOf((this.#hash as Hash).copy().digest());
  }

  reset(): void {
    this.#hash = this.#start();
    this.#finished = false;
  }

  #start(): Hash | Hmac {
    return this.#secret ? createHmac('sha256', bytesOf(this.#secret)) : createHash('sha256');
  }
}

/** MD5: the SDK's `Md5Node`. */
export class Md5 {
  readonly digestLength = 16;
  #hash = createHash('md5');

  update(data: Data): void {
    this.#hash.update(bytesOf(data));
  }

  async digest(): Promise<Uint8Array> {
    return digestOf(this.#hash.copy().digest());
  }

  reset(): void {
    this.#hash = createHash('md5');
  }
}
