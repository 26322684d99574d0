/**
 * The types of environment variables (docs/decisions/050-configuration.md): each builder parses the raw string — or
 * undefined, for a variable unset or blank (lib/config-schema.ts) — into its value, applying its default, with
 * problems in English that never repeat the value (parseEnvironment adds it, except for secrets).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A variable's schema: the raw string (or undefined) in, `T` out. */
export type Var<T> = z.ZodType<T, string | undefined>;

/** Reports `message` on `ctx` and returns zod's NEVER (for transforms). */
function fail(ctx: z.core.$RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** Options of {@link text}. */
export interface TextOptions {
  default?: string;
  /** Longest accepted value, characters. */
  max?: number;
  /** A value must match it (after trimming). */
  pattern?: RegExp;
  /** The problem when `pattern` does not match, e.g. `must be 1–100 letters, digits or : . _ -`. */
  patternError?: string;
  /** Keep surrounding whitespace (PEM keys as given); default: trimmed. */
  raw?: boolean;
}

/** A string. */
export function text(opts: TextOptions & { default: string }): Var<string>;
export function text(opts?: TextOptions): Var<string | undefined>;
export function text(opts: TextOptions = {}): Var<string | undefined> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return opts.default;
      const s = opts.raw ? v : v.trim();
      if (opts.max !== undefined && s.length > opts.max)
        return fail(ctx, `must be at most ${opts.max} characters`);
      if (opts.pattern && !opts.pattern.test(s)) return fail(ctx, opts.patternError ?? 'has the wrong form');
      return s;
    });
}

/** Options of {@link integer}. */
export interface IntegerOptions {
  min: number;
  max?: number;
  default?: number;
  /**
   * Name the variable in the problem itself (`PDF_POOL_SIZE must be at least 1`) instead of after it
   * (`PORT: must be at least 0`): the wording the renderer's and the capture's settings always had.
   */
  name?: string;
}

/** A whole number from `min` to `max` (decimal digits, an optional sign). */
export function integer(opts: IntegerOptions & { default: number }): Var<number>;
export function integer(opts: IntegerOptions): Var<number | undefined>;
export function integer(opts: IntegerOptions): Var<number | undefined> {
  const lead = opts.name ? `${opts.name} must` : 'must';
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return opts.default;
      const n = Number(v.trim());
      if (!/^[+-]?\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) {
        return fail(
          ctx,
          opts.max === undefined
            ? `${lead} be a whole number ≥ ${opts.min}`
            : `${lead} be a whole number from ${opts.min} to ${max}`,
        );
      }
      if (n < opts.min) return fail(ctx, `${lead} be at least ${opts.min}`);
      if (n > max) return fail(ctx, `${lead} be at most ${max}`);
      return n;
    });
}

const YES = ['1', 'true', 'yes'];
const NO = ['0', 'false', 'no'];

/** A yes/no switch: 1/0, true/false, yes/no (any case); without a default, undefined when unset. */
export function flag(dflt: boolean): Var<boolean>;
export function flag(): Var<boolean | undefined>;
export function flag(dflt?: boolean): Var<boolean | undefined> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return dflt;
      const s = v.trim().toLowerCase();
      if (YES.includes(s)) return true;
      if (NO.includes(s)) return false;
      return fail(ctx, 'must be 1 or 0 (true/false, yes/no)');
    });
}

/** One of `values`; `lower` compares in lower case (LOG_LEVEL=WARN is warn). */
export function oneOf<const T extends string>(
  values: readonly T[],
  opts: { default: T; lower?: boolean },
): Var<T>;
export function oneOf<const T extends string>(
  values: readonly T[],
  opts?: { lower?: boolean },
): Var<T | undefined>;
export function oneOf<const T extends string>(
  values: readonly T[],
  opts: { default?: T; lower?: boolean } = {},
): Var<T | undefined> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return opts.default;
      const s = opts.lower ? v.trim().toLowerCase() : v.trim();
      return (values as readonly string[]).includes(s)
        ? (s as T)
        : fail(ctx, `must be one of ${values.join(', ')}`);
    });
}

/** Options of {@link url}. */
export interface UrlOptions {
  default?: string;
  /** Accepted schemes without the colon (default http and https). */
  schemes?: readonly string[];
  /** Shown in the problem: `must be an http(s) URL such as <example>`. */
  example?: string;
}

/** An absolute URL with one of `schemes`, as given (trimmed). */
export function url(opts: UrlOptions & { default: string }): Var<string>;
export function url(opts?: UrlOptions): Var<string | undefined>;
export function url(opts: UrlOptions = {}): Var<string | undefined> {
  const schemes = opts.schemes ?? ['http', 'https'];
  const kind = schemes.join('/') === 'http/https' ? 'an http(s)' : `a ${schemes.join(' or ')}`;
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return opts.default;
      const s = v.trim();
      const parsed = URL.parse(s);
      if (!parsed || !schemes.includes(parsed.protocol.slice(0, -1)) || /\s/.test(s)) {
        return fail(ctx, `must be ${kind} URL${opts.example ? ` such as ${opts.example}` : ''}`);
      }
      return s;
    });
}

/** An ISO 8601 date and time with at least minutes (`2025-01-01T00:00:00+08:00`). */
export function isoDateTime(): Var<string | undefined> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = v.trim();
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s))
        ? s
        : fail(ctx, 'must be an ISO datetime such as 2025-01-01T00:00:00+08:00');
    });
}

/** The problem lines of a JSON value `schema` refused, as `NAME[path]: message` (the whole: `NAME must be …`). */
function jsonIssues(name: string, error: z.ZodError): string[] {
  return error.issues.map((i) =>
    i.path.length === 0
      ? `${name} must be a JSON array of items: ${i.message}`
      : `${name}[${i.path.join('.')}]: ${i.message}`,
  );
}

/** `text` parsed as JSON and validated by `schema`; problems named by `name` reported on `ctx`. */
function jsonValue<T>(name: string, text: string, schema: z.ZodType<T>, ctx: z.core.$RefinementCtx): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(ctx, `${name} is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  for (const message of jsonIssues(name, parsed.error)) ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/**
 * A JSON list given inline (`name`) or in a file (`${name}_FILE`, a path read at start), validated by `schema`: the
 * two variables' schemas, each parsing to the list (undefined when unset). A group declares both and checks that
 * at most one is set.
 */
export function jsonList<T>(
  name: string,
  schema: z.ZodType<T[]>,
): { inline: Var<T[] | undefined>; file: Var<T[] | undefined> } {
  const parse = (text: string, ctx: z.core.$RefinementCtx): T[] =>
    text.trim() ? jsonValue(name, text, schema, ctx) : [];
  return {
    inline: z
      .string()
      .optional()
      .transform((v, ctx) => (v === undefined ? undefined : parse(v, ctx))),
    file: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        let text: string;
        try {
          text = readFileSync(path.resolve(v.trim()), 'utf8');
        } catch (err) {
          return fail(
            ctx,
            `${name}_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
          );
        }
        return parse(text, ctx);
      }),
  };
}

/** A path to a text file read at start (a PEM bundle): its path and content. */
export function textFile(name: string): Var<{ path: string; text: string } | undefined> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const file = path.resolve(v.trim());
      try {
        return { path: file, text: readFileSync(file, 'utf8') };
      } catch (err) {
        return fail(ctx, `${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      }
    });
}

/** Both `a` and `b` given (a list inline and as a file): the problem line, else none. */
export function notBoth(a: string, b: string, given: ReadonlySet<string>): string[] {
  return given.has(a) && given.has(b) ? [`${a}: set ${a} or ${b}, not both`] : [];
}
