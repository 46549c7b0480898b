import { loadConfig } from '../config.js';
import { createDeps, type Service } from '../main.js';

/** Runs a command body with the configured dependencies and always closes the store afterwards. */
export async function withDeps<T>(body: (deps: Service) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const deps = await createDeps(config);
  try {
    return await body(deps);
  } finally {
    await deps.close();
  }
}
