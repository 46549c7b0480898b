import type { CompiledQuery, Compilable, Kysely } from 'kysely';

const PATH = Symbol('prepared parameter path');

/**
 * A stand-in for a parameter while a query is compiled: reading `params.rows[3].id` from it gives a
 * value that Kysely stores as an ordinary bind parameter, and that remembers the path it was read at.
 */
function placeholder(path: ReadonlyArray<string | number>): unknown {
  return new Proxy(Object.freeze({ [PATH]: path }), {
    get: (target, property) => {
      if (property === PATH) return target[PATH];
      if (typeof property === 'symbol' || property === 'then' || property === 'toOperationNode') return undefined;
      return placeholder([...path, /^\d+$/.test(property) ? Number(property) : property]);
    },
  });
}

function pathOf(value: unknown): ReadonlyArray<string | number> | undefined {
  return typeof value === 'object' && value !== null ? (value as { [PATH]?: ReadonlyArray<string | number> })[PATH] : undefined;
}

function valueAt(params: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = params;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  if (value === undefined) throw new Error(`prepared query: no parameter at ${path.join('.')}`);
  return value;
}

interface Compiled<R> {
  readonly query: CompiledQuery<R>;
  readonly bind: (params: unknown) => unknown[];
}

/**
 * A query built and compiled once per dialect (and per `size`, for lists and multi-row inserts) and
 * then run with fresh values. Kysely builds and compiles every query from scratch, which on a hot path
 * costs about as much as SQLite takes to run it (5 of 12 µs for a primary-key read, measured). The
 * compiled SQL text is also what the SQLite statement cache is keyed on, so it is prepared once too.
 *
 * `build` must pass parameters through unchanged: it receives stand-ins, so a conversion written inside
 * it (`fast ? 1 : 0`) would be compiled once as a constant. Convert values before `execute`.
 *
 * @example
 * const byId = prepared((db, p: { id: string }) => db.selectFrom('accounts').selectAll().where('id', '=', p.id));
 * const rows = await byId.execute(db, { id });
 */
export function prepared<DB, P, R>(build: (db: Kysely<DB>, params: P, size: number) => Compilable<R>) {
  const compiledFor = new WeakMap<object, Map<number, Compiled<R>>>();
  const compile = (db: Kysely<DB>, size: number): Compiled<R> => {
    const query = build(db, placeholder([]) as P, size).compile();
    const sources = query.parameters.map((value) => pathOf(value) ?? { constant: value });
    const bind = (params: unknown) => sources.map((source) => ('constant' in source ? source.constant : valueAt(params, source)));
    return { query, bind };
  };
  return {
    async execute(db: Kysely<DB>, params: P, size = 1): Promise<R[]> {
      // Transactions share their database's adapter: one compilation serves both, per dialect.
      const adapter = db.getExecutor().adapter;
      let bySize = compiledFor.get(adapter);
      if (!bySize) compiledFor.set(adapter, (bySize = new Map()));
      let compiled = bySize.get(size);
      if (!compiled) bySize.set(size, (compiled = compile(db, size)));
      const result = await db.executeQuery<R>({ ...compiled.query, parameters: compiled.bind(params) });
      return result.rows;
    },
  };
}

/** Rows per INSERT: well under both dialects' bind-parameter limits, and a bounded set of compiled shapes. */
const INSERT_CHUNK = 250;

/**
 * A multi-row INSERT of `columns`, prepared once per dialect and row count and run in chunks of at most
 * 250 rows. `insert` receives stand-in rows carrying exactly `columns` (Kysely reads a row's keys to
 * know its columns, which a stand-in cannot tell it); a list missing a column of `Row` does not compile.
 */
export function preparedInsert<DB, Row extends object, const Columns extends ReadonlyArray<keyof Row>>(
  insert: (db: Kysely<DB>, rows: Row[]) => Compilable<unknown>,
  columns: Columns & (Exclude<keyof Row, Columns[number]> extends never ? unknown : never),
) {
  const statement = prepared((db: Kysely<DB>, p: { rows: Row[] }, size) =>
    insert(
      db,
      Array.from({ length: size }, (_, i) => {
        const row = p.rows[i]!;
        return Object.fromEntries(columns.map((column) => [column, row[column]])) as Row;
      }),
    ),
  );
  return {
    async execute(db: Kysely<DB>, rows: readonly Row[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        await statement.execute(db, { rows: chunk }, chunk.length);
      }
    },
  };
}
