/**
 * The machinery every process's configuration is built with (docs/decisions/050-configuration.md).
 *
 * A variable is a zod schema registered in {@link envRegistry} with its metadata: a one-line description, whether it
 * is a secret (its value is never shown, and `NAME_FILE` may name a file holding it), what production asks of it, and
 * how the docs show its default. A group ({@link EnvGroup}) is a named set of variables with the checks that span
 * several of them; a process composes groups (server/config/server.ts, platform/config.ts, witness/config.ts) and parses its
 * environment once, at its entry point, with {@link parseEnvironment}. Defaults live in the schemas and nowhere else;
 * a blank value (`FOO=`, as compose files and shells produce) counts as unset. Every problem is collected and thrown
 * as one ConfigError, one line each, naming the variable; a non-secret's offending value is quoted, a secret's never.
 * scripts/config-docs.ts renders docs/configuration.md and .env.example from the same registry.
 */
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { readSecretFiles } from './secret-files.ts';

/** An environment as `process.env` holds it. Never written by the configuration code. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * What APP_ENV=production (the default) asks of a variable: that it is set, or that its parsed value is not one
 * `refuse` flags (`why` is the docs' text and the problem's, e.g. "a production start refuses to enable test hooks").
 */
export type ProductionRule = { required: true } | { refuse: (value: unknown) => boolean; why: string };

/** The metadata of one variable. */
export interface EnvVarMeta {
  /** One line of English: what it sets, with units. */
  description: string;
  /** A key, password or credential-bearing URL: never shown; `NAME_FILE` may hold it (lib/secret-files.ts). */
  secret?: boolean;
  /**
   * False: a problem does not quote the value (a JSON document or PEM whose problem lines already point into it).
   * Secrets are never quoted.
   */
  showValue?: boolean;
  /** Required whatever APP_ENV says (checked by {@link parseEnvironment}). */
  required?: boolean;
  /** What a production start asks of it (checked by {@link parseEnvironment}); none when absent. */
  production?: ProductionRule;
  /**
   * The default as the docs show it, when the schema's own (its value parsed from unset) would mislead: derived
   * from another variable, or in another unit.
   */
  defaultText?: string;
}

/** Every declared variable's metadata, by its schema. */
export const envRegistry = z.registry<EnvVarMeta>();

/** Registers `schema` as a variable with `meta`; returns `schema` itself (place it in a group's `vars`). */
export function envVar<T extends z.ZodType>(schema: T, meta: EnvVarMeta): T {
  envRegistry.add(schema, meta);
  return schema;
}

/** The metadata of a declared variable's schema. @throws Error when `schema` was not declared with {@link envVar} */
export function metaOf(name: string, schema: z.ZodType): EnvVarMeta {
  const meta = envRegistry.get(schema);
  if (!meta) throw new Error(`${name} is not declared with envVar() (lib/config-schema.ts)`);
  return meta;
}

/** A group's variables: name → declared schema, parsing the raw string (undefined when unset or blank). */
export type EnvShape = Record<string, z.ZodType>;

/** The parsed values of a shape. */
export type EnvValues<S extends EnvShape> = { [K in keyof S]: z.output<S[K]> };

/**
 * A rule spanning several variables, run once each of `vars` parsed (with no `vars`, always): returns its problems,
 * one line each. `given` holds the names set and not blank (a variable whose file could not be read included).
 */
export interface EnvCheck<V> {
  vars: readonly string[];
  problems(values: V, given: ReadonlySet<string>): string[];
}

/** A named set of variables, the unit processes compose and the docs render as one table. */
export interface EnvGroup<S extends EnvShape = EnvShape> {
  /** Stable identifier (`gateway`, `pdf`, `sms`, …). */
  id: string;
  /** The docs' heading. */
  title: string;
  /** One or two sentences for the docs and .env.example. */
  summary: string;
  vars: S;
  checks?: readonly EnvCheck<EnvValues<S>>[];
}

/** Declares a group (identity; for inference of `checks`' values). */
export function envGroup<S extends EnvShape>(group: EnvGroup<S>): EnvGroup<S> {
  return group;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;
type GroupValues<G> = G extends EnvGroup<infer S> ? EnvValues<S> : never;

/** The parsed values of several groups together. */
export type ValuesOf<G extends readonly EnvGroup[]> = UnionToIntersection<GroupValues<G[number]>>;

/** What {@link parseEnvironment} returns: the values, and which variables were given (set and not blank). */
export interface ParsedEnvironment<V> {
  values: V;
  given: ReadonlySet<string>;
}

/** APP_ENV, the one variable every production rule depends on (composed by lib/config-shared.ts). */
export const APP_ENV = envVar(
  z
    .string()
    .optional()
    .transform((v) => v?.toLowerCase())
    .pipe(
      z
        .enum(['production', 'development', 'test'], { error: 'must be production, development or test' })
        .default('production'),
    ),
  {
    description:
      'production (also when unset) refuses test-only settings; test allows TEST_HOOKS=1 and CAPTURE_TEST_ALLOW',
  },
);

/** The variables of `groups` as one shape. @throws Error when two groups declare the same name (a programming error) */
export function shapeOf(groups: readonly EnvGroup[]): EnvShape {
  const shape: EnvShape = {};
  for (const g of groups) {
    for (const [name, schema] of Object.entries(g.vars)) {
      if (name in shape && shape[name] !== schema)
        throw new Error(`${name} is declared twice (group ${g.id})`);
      shape[name] = schema;
    }
  }
  return shape;
}

/** A value quoted for a problem line: at most 60 characters, on one line. */
function quoted(raw: string): string {
  const flat = raw.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > 60 ? `${flat.slice(0, 59)}…` : flat);
}

/** One problem line of a variable: `NAME: what is wrong, got "value"` (never a secret's value). */
function fieldProblem(
  name: string,
  issues: readonly z.core.$ZodIssue[],
  raw: string,
  quote: boolean,
): string {
  const texts = [...new Set(issues.map((i) => i.message))].map((t) =>
    t.startsWith(name) ? t : `${name}: ${t}`,
  );
  return `${texts.join('; ')}${quote ? `, got ${quoted(raw)}` : ''}`;
}

/**
 * The ConfigError of `problems`: `Invalid configuration: <problem>` for one, else a header and one indented line per
 * problem, so an operator reads them all at once.
 */
export function configError(problems: readonly string[]): ConfigError {
  return new ConfigError(
    problems.length === 1
      ? `Invalid configuration: ${problems[0]}`
      : `Invalid configuration (${problems.length} problems):\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
}

/**
 * Parses `env` against `groups` (a group listed twice counts once), once: secret files read (`NAME_FILE`), each
 * variable parsed (blank = unset), production rules applied (APP_ENV is parsed too when a rule needs it), then each
 * group's checks whose variables all parsed. Pure apart from reading secret files and the files path-valued
 * variables name.
 * @throws ConfigError listing every problem, one line each; never a secret's value
 */
export function parseEnvironment<const G extends readonly EnvGroup[]>(
  groups: G,
  env: Environment,
): ParsedEnvironment<ValuesOf<G>> {
  const shape = shapeOf(groups);
  const metas = new Map(Object.entries(shape).map(([name, schema]) => [name, metaOf(name, schema)]));
  if (!('APP_ENV' in shape) && [...metas.values()].some((m) => m.production)) {
    shape.APP_ENV = APP_ENV;
    metas.set('APP_ENV', metaOf('APP_ENV', APP_ENV));
  }
  const secrets = [...metas].filter(([, m]) => m.secret).map(([name]) => name);
  const read = readSecretFiles(env, secrets);
  const problems = read.problems.map((p) => p.text);
  const failed = new Set(read.problems.map((p) => p.name));
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const [name, schema] of Object.entries(shape)) {
    if (failed.has(name)) continue;
    const raw = read.env[name];
    const input = raw === undefined || raw.trim() === '' ? undefined : raw;
    if (input !== undefined) given.add(name);
    const parsed = schema.safeParse(input);
    if (parsed.success) {
      values[name] = parsed.data;
      if (parsed.data === undefined && metas.get(name)!.required) {
        failed.add(name);
        problems.push(`${name}: required`);
      }
    } else {
      failed.add(name);
      const meta = metas.get(name)!;
      const quote = meta.secret !== true && meta.showValue !== false && input !== undefined;
      problems.push(fieldProblem(name, parsed.error.issues, input ?? '', quote));
    }
  }
  if (values.APP_ENV === 'production') {
    for (const [name, meta] of metas) {
      const rule = meta.production;
      if (!rule || failed.has(name)) continue;
      if ('required' in rule && values[name] === undefined) {
        problems.push(`${name}: required when APP_ENV=production (the default)`);
      } else if ('refuse' in rule && rule.refuse(values[name])) {
        problems.push(`${name}: ${rule.why}`);
      }
    }
  }
  for (const g of new Set(groups)) {
    for (const check of g.checks ?? []) {
      if (check.vars.some((v) => failed.has(v))) continue;
      problems.push(...check.problems(values as never, given));
    }
  }
  if (problems.length > 0) throw configError(problems);
  return { values: values as ValuesOf<G>, given };
}

/**
 * This process's environment, read once by a process's entry point (server/config/server.ts, platform/config.ts,
 * witness/config.ts): the one read of `process.env` in the product (ESLint `no-restricted-properties` allows it in
 * the config modules alone). A copy, so later changes do not leak in.
 */
export function processEnvironment(): Environment {
  return { ...process.env };
}

/** `value` frozen with everything it holds (plain objects and arrays; typed arrays are left as they are). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
