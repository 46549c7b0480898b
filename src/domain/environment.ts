export const ENVIRONMENTS = ['staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** API keys carry their environment in their prefix, so a key can never be used on the wrong side. */
export const KEY_PREFIX: Readonly<Record<Environment, string>> = Object.freeze({
  staging: 'tk_test_',
  production: 'tk_live_',
});

export function environmentOfKey(key: string): Environment | undefined {
  if (key.startsWith(KEY_PREFIX.staging)) return 'staging';
  if (key.startsWith(KEY_PREFIX.production)) return 'production';
  return undefined;
}
