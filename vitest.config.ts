import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One local stack (DynamoDB Local, SQS server, gateway, pollers) for the whole run, on random ports.
    globalSetup: ['test/global-setup.ts'],
    // Gives every test file the functions' environment, so handlers and repositories can be imported directly.
    setupFiles: ['test/setup-env.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
  },
});
