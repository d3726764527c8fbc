import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

/** The unit tests (`test/<module>/unit/`): pure code, no local stack. */
const unitTests = 'test/*/unit/*.test.ts';
/**
 * The stack's files that need a process of their own: one runs a second, live stack's functions in its process (their
 * modules must load with that stack's environment), one replaces modules (`vi.mock`), which only a fresh process honours.
 */
const isolatedStackTests = ['test/customers/integration/tokenization-host.test.ts', 'test/subscriptions/integration/stale-reads.test.ts'];

export default defineConfig({
  test: {
    // Forked processes. Worker threads were measured too (clean-clone runs on 2 cores: 570 and 630 s of vitest, against
    // 593 and 618 s forked): no gain beyond the runs' own spread, and a thread shares its process's zone and directory.
    pool: 'forks',
    // Four files at a time (vitest's default is one fewer than the cores: one on a 2-core machine). The files share
    // the one local stack and wait on it in turns (its database takes writes one at a time), so with two in flight
    // the 2 cores were 81 % busy and with three 89 %: 517 s instead of 572 s (and 813 s with one). Clean-clone runs of
    // `.ci/run` on 2 cores: 9 min 36 s to 10 min 18 s with three (three runs), 9 min 22 s and 9 min 3 s with four.
    maxWorkers: 4,
    // The longest files first, the same order with or without vitest's cache of the last run (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Gives every test file the functions' environment, so handlers and repositories can be imported directly.
    setupFiles: ['test/setup-env.ts'],
    testTimeout: 20_000,
    // expect.poll waits up to 10 s (vitest's default is 1 s): a page's answer on a busy 2-core run can take longer,
    // and a poll ends as soon as its condition holds.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
    // Two projects, each with the options above: `npm test` runs both, `npm run test:quick` the unit one alone.
    projects: [
      {
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: [unitTests, ...isolatedStackTests],
          // One local stack (DynamoDB Local, SQS server, gateway, pollers) for the whole run, on random ports.
          globalSetup: ['test/global-setup.ts'],
          // A process runs many files in turn, their modules loaded once (as the unit tests do): the test processes'
          // CPU fell from 352 to 198 s of a whole run on 2 cores. A file must then leave the process as it found it
          // (no module replaced, no hook left on a shared client, the environment restored), or be listed above.
          isolate: false,
        },
      },
      {
        test: {
          name: 'stack-isolated',
          include: isolatedStackTests,
          // The same stack as `stack` (test/global-setup.ts holds one for both).
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'unit',
          include: [unitTests],
          // The environment of a stack that is not there (test/quick-setup.ts): a unit test that reached for one fails.
          globalSetup: ['test/quick-setup.ts'],
          // A process runs many unit files in turn, their modules loaded once: about half the CPU of a process a file
          // (the 56 files alone on 2 cores: 16 to 22 s against 37 s). They share no state but the modules they import.
          isolate: false,
        },
      },
    ],
  },
});
