import type { Deps } from '../app/deps.js';
import { loadConfig } from '../config.js';
import { createDeps } from '../main.js';

/** Runs a command body with the configured dependencies and always closes the store afterwards. */
export async function withDeps<T>(body: (deps: Deps & { migrated: string[] }) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const deps = await createDeps(config);
  try {
    return await body(deps);
  } finally {
    await deps.store.close();
  }
}
