/**
 * A thing this process holds once for every holder that asks for it (a run's capture folder, its local stack): made
 * by the first, let go of by the last. Held on `process` under a global symbol, so every module instance of the
 * process (each project's global setup loads its own) finds the same one.
 */
interface Held<T> {
  value: T;
  holders: number;
}

/** Holds the thing named `name`, made by `make` when no one holds it; the last `release` hands it to `dispose`. */
export function holdOnce<T>(name: string, make: () => T, dispose: (value: T) => void | Promise<void>): { value: T; release: () => Promise<void> } {
  const key = Symbol.for(name);
  const proc = process as unknown as Record<symbol, Held<T> | undefined>;
  proc[key] ??= { value: make(), holders: 0 };
  const held = proc[key];
  held.holders++;
  let released = false;
  return {
    value: held.value,
    // Up to its first await (the disposal itself) a release runs at once, so a sync `dispose` is done when it returns.
    release: async () => {
      if (released) return;
      released = true;
      if (--held.holders > 0) return;
      delete proc[key];
      await dispose(held.value);
    },
  };
}
