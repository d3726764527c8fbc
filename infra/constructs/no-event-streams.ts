/**
 * Stands in for `@smithy/core/event-streams` in every function bundle (an esbuild alias, see `bundling.ts`). The SDK's
 * HTTP protocol loads its event-stream codec with a dynamic `import()` only when an operation streams events; a
 * function bundle is one file, so esbuild inlined that import and every function carried the whole codec (19 KB)
 * though no operation the functions call (DynamoDB, SQS) streams events. Here the two names the protocol takes refuse
 * instead, loudly, should one ever be called; a name missing here fails the build.
 */
const unbundled = (): never => {
  throw new Error('The AWS SDK event-stream codec is not bundled: no operation a function calls streams events.');
};

export class EventStreamSerde {
  constructor() {
    unbundled();
  }
}

export const eventStreamSerdeProvider = unbundled;
