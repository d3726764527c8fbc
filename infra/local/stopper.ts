/**
 * A local poller's stop: whether it was asked to stop (`stopped`), and sleeps the stop cuts short (`sleep` resolves
 * after `ms`, or at once when the poller is stopping or stops meanwhile).
 */
export function stopper() {
  let stopped = false;
  const sleepers = new Set<() => void>();
  return {
    get stopped() {
      return stopped;
    },
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        if (stopped) return resolve();
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        sleepers.add(wake);
      }),
    /** Stops: every sleep ends now, and every later one at once. */
    stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
    },
  };
}
