/**
 * Queries built and compiled once, run many times with new parameter values (decision 054, "SQLite statements
 * prepared once"). Kysely builds a query's operation tree and compiles it to SQL on every call: on the calls every request
 * makes (the token lookup of each signed-in call, the unread count, the certificate's evidence) that was ~40 % of
 * the platform thread's CPU per call, more than SQLite took to run them. A prepared query is built once per database
 * handle with a marker in place of each parameter, compiled, and then executed as that compiled query with the
 * markers' places in its parameter list filled in. The values still go to the driver as bound parameters, never
 * into the SQL text, and the SQL text is the one the builder gives, so the statement cache of SQLite
 * (statement-cache.ts) and PostgreSQL's own planning see the same statement as before.
 *
 * The library for this, kysely-params, depends on Kysely 0.24 (a second copy beside our 0.28) and is not kept up;
 * this is its idea in a few lines against Kysely's public `compile()` and `executeQuery()`.
 *
 * Only for queries whose shape does not depend on the values (no `in (…)` list of varying length, no clause added
 * for some values only): a builder that tests a value sees the marker, not the value.
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** A parameter's stand-in while the query is built: Kysely binds it as a value like any other. */
class Marker {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** Reads a parameter inside a builder: the value's stand-in, typed as the value so the builder typechecks. */
export type ParamReader<P> = <K extends keyof P & string>(name: K) => P[K];

/** A compiled query and, per slot of its parameter list, the name of the parameter that fills it or null. */
interface Template<O> {
  compiled: CompiledQuery<O>;
  slots: (string | null)[];
}

/**
 * A query of result row `O` with parameters `P`, compiled once per database handle (a `Kysely` instance; a
 * transaction is a handle of its own, so inside one the query compiles once per transaction).
 * @param build builds the query on `db`, reading each parameter with `param(name)`
 * @returns `run(db, params)`: the rows, as `build(db, …).execute()` with the values would give them
 * @throws (from `run`, on first use with a handle) an Error when a parameter read by `build` is not among the
 *   compiled query's bound parameters (the builder put it into the SQL text instead), or when `params` lacks one
 */
export function preparedQuery<P extends Record<string, unknown>, O>(
  build: (db: Kysely<Database>, param: ParamReader<P>) => Compilable<O>,
): (db: Kysely<Database>, params: P) => Promise<O[]> {
  const templates = new WeakMap<Kysely<Database>, Template<O>>();
  const compile = (db: Kysely<Database>): Template<O> => {
    const read = new Set<string>();
    const param = ((name: string) => {
      read.add(name);
      return new Marker(name);
    }) as ParamReader<P>;
    const compiled = build(db, param).compile();
    const slots = compiled.parameters.map((value) => (value instanceof Marker ? value.name : null));
    for (const name of read) {
      if (!slots.includes(name)) throw new Error(`prepared query: parameter ${name} is not bound in its SQL`);
    }
    return { compiled, slots };
  };
  return async (db, params) => {
    let template = templates.get(db);
    if (!template) templates.set(db, (template = compile(db)));
    const { compiled, slots } = template;
    const parameters = compiled.parameters.map((constant, i) => {
      const name = slots[i] ?? null;
      if (name === null) return constant;
      if (!(name in params)) throw new Error(`prepared query: no value for parameter ${name}`);
      return params[name];
    });
    const result = await db.executeQuery<O>({ ...compiled, parameters, queryId: createQueryId() });
    return result.rows;
  };
}
