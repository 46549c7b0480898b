import { Type, type TSchema } from '@sinclair/typebox';
import { CURRENCIES } from '../domain/currency.js';
import { OPERATORS } from '../domain/operators.js';
import { DEFAULT_PAGE, MAX_PAGE, MAX_PAGE_LIMIT, type CursorInfo, type PageInfo } from '../domain/pagination.js';

// Shapes every part of the contract shares. Framework-free TypeBox: the same schemas validate requests
// (http/), make the OpenAPI document, and give the use cases and presenters their types (Static<>).

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

/** Every `/v1` response may be an error; the OpenAPI document says so once per route. */
export const problemResponses = {
  '4xx': Type.Ref('Problem'),
  '5xx': Type.Ref('Problem'),
};

export const PageQuerySchema = Type.Object(
  {
    // Bounded so that (page − 1) × limit stays a plain 32-bit offset on every database.
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE.page }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE.limit }),
  },
  { additionalProperties: false },
);

/** The query of a route that takes none: any parameter is refused. */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });

/** Deposits: `page`, or `after` a deposit id for the next ones by keyset. */
export const DepositQuerySchema = Type.Composite(
  [PageQuerySchema, Type.Object({ after: Type.Optional(Type.String({ pattern: '^dep_[a-z2-7]{26}$', description: 'the deposits after this one (keyset paging)' })) })],
  { additionalProperties: false },
);

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

/** With `after`: the cursor given, and the one to give next (null once a page comes back short). */
export const CursorPaginationSchema = Type.Object({
  after: Type.String(),
  limit: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
  next_after: Type.Union([Type.String(), Type.Null()]),
});

export const envelopeOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Type.Union([PaginationSchema, CursorPaginationSchema]) });

/** The paginated envelope of the interface document: `{data, pagination}` (keyset paging adds its cursor). */
export const envelope = <T>(data: T[], page: PageInfo | CursorInfo) => ({
  data,
  pagination:
    'after' in page
      ? { after: page.after, limit: page.limit, total: page.total, total_pages: page.total_pages, next_after: page.next_after }
      : { page: page.page, limit: page.limit, total: page.total, total_pages: page.total_pages },
});

/** Money and rates as exact decimal text ("5.00", "4.9773"). */
export const DecimalText = (description?: string) => Type.String({ pattern: '^-?\\d+\\.\\d+$', ...(description ? { description } : {}) });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const CurrencySchema = Type.Union(CURRENCIES.map((c) => Type.Literal(c)));

export const OperatorSchema = Type.Union(OPERATORS.map((o) => Type.Literal(o)));

/** Epoch milliseconds as the contract writes instants: ISO 8601 UTC with milliseconds. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

export const isoTimeOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));
