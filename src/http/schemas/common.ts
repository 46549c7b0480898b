import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PAGE, MAX_PAGE, MAX_PAGE_LIMIT } from '../../domain/pagination.js';

export const FieldProblemSchema = Type.Object({
  arrayPosition: Type.Optional(Type.Integer()),
  field: Type.String(),
  code: Type.String(),
  message: Type.String(),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI reference describing the error code' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable snake_case error code' }),
    requestId: Type.String(),
    success: Type.Literal(false),
    message: Type.String({ description: 'Same as detail' }),
    errors: Type.Optional(Type.Array(FieldProblemSchema)),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

export const PageQuerySchema = Type.Object(
  {
    // Bounded so that (page − 1) × limit stays a plain 32-bit offset on every database.
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE.page }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE.limit }),
  },
  { additionalProperties: false },
);

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

export const envelopeOf = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), pagination: PaginationSchema });

/** Money and rates as exact decimal text ("5.00", "4.9773"). */
export const DecimalText = (description?: string) => Type.String({ pattern: '^-?\\d+\\.\\d+$', ...(description ? { description } : {}) });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

/** Every `/v1` response may be an error; the OpenAPI document says so once per route. */
export const problemResponses = {
  '4xx': Type.Ref('Problem'),
  '5xx': Type.Ref('Problem'),
};
