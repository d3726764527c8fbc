/**
 * The order `npm test` starts its files in: the longest first, so that no long file starts last and runs on alone
 * while the other worker has nothing left (the run's wall time is about half the files' sum plus that tail).
 *
 * vitest orders by the durations of the last run kept in its cache (`node_modules/.vite/vitest`), and without that
 * cache (a clean clone, as CI runs) by file size, which put the small but long property files last. The files that
 * take longest in a run on the 2-core machine are named here, longest first (seconds of a clean-clone run, rounded);
 * every other file follows in vitest's own order. A file missing from the list is only started later: the list is
 * about speed, never about what runs.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest files, longest first (measured seconds; update when a file's time changes much). */
export const longestFiles: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ['test/infra/app.test.ts', 68],
  ['test/docs/e2e/docs-examples.test.ts', 66],
  // 80 runs a file since 45d808b (150 before: 76 and 73 s; their share of a clean-clone run fell by a third and two fifths).
  ['test/subscriptions/integration/subscription-properties.test.ts', 49],
  ['test/subscriptions/integration/subscription-properties-weekly.test.ts', 45],
  ['test/subscriptions/integration/renewal-storm.test.ts', 37],
  ['test/platform/e2e/local-stack.test.ts', 27],
  ['test/subscriptions/integration/subscription-races.test.ts', 24],
  ['test/docs/e2e/docs-site.test.ts', 24],
  ['test/webhooks/integration/webhooks.test.ts', 23],
  ['test/people/integration/admin-cli.test.ts', 23],
  // 60 runs since this change (100 before: 35 s).
  ['test/money/integration/money-properties.test.ts', 21],
  ['test/docs/e2e/docs-reference.test.ts', 19],
  ['test/subscriptions/integration/subscription-races-http.test.ts', 16],
  ['test/webhooks/integration/events.test.ts', 15],
  ['test/money/integration/payouts.test.ts', 14],
  ['test/customers/integration/tokenization-host.test.ts', 12],
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = new Map(longestFiles.map(([file], i) => [file, i]));
    const rankOf = (spec: TestSpecification) => rank.get(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')) ?? rank.size;
    // A stable sort: the files not named keep vitest's order, after the named ones.
    return (await super.sort(files)).sort((a, b) => rankOf(a) - rankOf(b));
  }
}
