/** What `test/global-setup.ts` provides to every test file (read with `inject`). */
declare module 'vitest' {
  interface ProvidedContext {
    /** `http://localhost:<port>/api`: the local gateway of the run's stack. */
    baseUrl: string;
    /** DynamoDB Local of the run's stack (`http://127.0.0.1:<port>`). */
    dynamoEndpoint: string;
    /** SQS server of the run's stack (`http://127.0.0.1:<port>`). */
    sqsEndpoint: string;
    /** The environment the stack's functions run with (TABLE_NAME, endpoints, fake credentials, ...). */
    functionEnv: Record<string, string>;
    /** Folder where every process of the run keeps a copy of its output, audited for card data at the end. */
    captureDir: string;
    /**
     * Whether the test processes' own DynamoDB calls go unsigned, as the stack's functions' do (`unsignedForDynamoLocal`):
     * true with the run's stack, absent in the unit tests' setup (no stack there).
     */
    unsignedDynamo?: boolean;
  }
}

export {};
