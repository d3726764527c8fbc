/**
 * Text compared as people read it (`Émile` sorts with `E`, case aside), for sorting lists by name. The collator is
 * made at the first comparison, not at import: building one costs a function's cold start milliseconds, and most
 * requests of the functions that carry it never sort.
 */
let collator: Intl.Collator | undefined;

export function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { sensitivity: 'base' });
  return collator.compare(a, b);
}
