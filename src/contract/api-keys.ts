import { Type, type Static } from '@sinclair/typebox';
import { KEY_SCOPES, type ApiKey } from '../domain/api-key.js';
import { isoTime, isoTimeOrNull, Timestamp } from './common.js';

const ScopeSchema = Type.Union(KEY_SCOPES.map((s) => Type.Literal(s)), { description: 'full, or read: the GET endpoints and POST /v1/ping only' });

export const ApiKeyRecordSchema = Type.Object({
  id: Type.String(),
  prefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
  name: Type.Union([Type.String(), Type.Null()]),
  scope: ScopeSchema,
  environment: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'to the minute' }),
  revoked: Type.Boolean(),
});

export const ApiKeyListSchema = Type.Object({ data: Type.Array(ApiKeyRecordSchema) });

export const CreateApiKeySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scope: Type.Optional(ScopeSchema),
  },
  { additionalProperties: false },
);
export type CreateApiKey = Static<typeof CreateApiKeySchema>;

export const ApiKeyCreatedSchema = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'the key itself, shown this once' }),
  scope: ScopeSchema,
});

export const ApiKeyIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const presentApiKey = (k: ApiKey) => ({
  id: k.id,
  prefix: k.displayPrefix,
  name: k.name,
  scope: k.scope,
  environment: k.environment,
  created_at: isoTime(k.createdAt),
  last_used_at: isoTimeOrNull(k.lastUsedAt),
  revoked: k.revokedAt !== null,
});
