import type { ApiKey } from '../domain/api-key.js';
import { isoTime } from './common.js';

export const presentApiKey = (k: ApiKey) => ({
  id: k.id,
  prefix: k.displayPrefix,
  environment: k.environment,
  created_at: isoTime(k.createdAt),
  revoked: k.revokedAt !== null,
});
