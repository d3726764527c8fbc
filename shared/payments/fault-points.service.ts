/**
 * Test-only: where a test stops an operation the way a crash would — right after the processor answered, before
 * the answer is recorded — to show the reconciler settling what was left (docs/design/reconciler.md). Nothing in a
 * deployment sets it.
 */
export const faultPoints: { afterProcessor?: (operation: 'charge' | 'refund', id: string) => void } = {};
