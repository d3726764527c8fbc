/** Runs code of this process with some of its environment changed, as a function given other settings would run. */

/**
 * Runs `run` with each of `vars` set (or, undefined, removed) in this process's environment, and puts every one of them
 * back as it was when it ends, however it ends.
 */
export async function withEnv<T>(vars: Readonly<Record<string, string | undefined>>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  set(vars);
  try {
    return await run();
  } finally {
    set(saved);
  }
}
