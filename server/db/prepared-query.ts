import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './database';

/** Stands in for a value while a query is compiled; replaced by the real one on every run. */
class Slot {
  constructor(readonly index: number) {}
}

/** `slot(i)` stands for the i-th value given to execute(): typed by the annotation `slot: Slots<[...]>`. */
export type Slots<Args extends unknown[]> = <K extends keyof Args & number>(index: K) => Args[K];

/** The row type Kysely worked out for a query. */
type RowOf<Q> = Q extends Compilable<infer Row> ? Row : never;

export interface PreparedQuery<Args extends unknown[], Row> {
  execute(db: Kysely<Database>, ...args: Args): Promise<Row[]>;
  executeTakeFirst(db: Kysely<Database>, ...args: Args): Promise<Row | undefined>;
}

/**
 * A query built and compiled once per dialect, then run with new values: for the few queries on every send's
 * path to the model (sign-in check, rate limit, the conversation), where Kysely's building and compiling cost
 * more than SQLite's running the statement (about 0.2 ms each on a server that was idle a moment before).
 * Values go in through `slot(i)`, the i-th argument of execute() (`slot: Slots<[id: string]>` types them; the
 * rows are typed by Kysely as usual); they must reach the query as bound parameters
 * (where/values/set), never as SQL text. A transaction compiles the same text as its database, so the
 * dialect's adapter is the cache key and `db` may be either.
 */
export function preparedQuery<Args extends unknown[], Q extends Compilable<unknown>>(
  build: (db: Kysely<Database>, slot: Slots<Args>) => Q,
): PreparedQuery<Args, RowOf<Q>> {
  type Row = RowOf<Q>;
  const compiled = new WeakMap<object, CompiledQuery<Row>>();

  const compile = (db: Kysely<Database>): CompiledQuery<Row> => {
    const made = new Set<number>();
    const slot = ((index: number) => {
      made.add(index);
      return new Slot(index);
    }) as Slots<Args>;
    const query = build(db, slot).compile() as CompiledQuery<Row>;
    const bound = new Set(query.parameters.flatMap((p) => (p instanceof Slot ? [p.index] : [])));
    // A slot turned into SQL text (or dropped) would run every later call with the first call's shape: refused.
    for (const index of made) if (!bound.has(index)) throw new Error(`preparedQuery: slot ${index} is not a bound parameter`);
    return query;
  };

  const run = (db: Kysely<Database>, args: Args): Promise<QueryResult<Row>> => {
    const { adapter } = db.getExecutor();
    let query = compiled.get(adapter);
    if (!query) compiled.set(adapter, (query = compile(db)));
    const parameters = query.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return db.executeQuery<Row>({ ...query, parameters });
  };

  return {
    execute: async (db, ...args) => (await run(db, args)).rows,
    executeTakeFirst: async (db, ...args) => (await run(db, args)).rows[0],
  };
}
