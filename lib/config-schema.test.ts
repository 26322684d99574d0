/**
 * The configuration machinery (lib/config-schema.ts; docs/decisions/050-configuration.md): blank is unset,
 * defaults come from the schema, every problem is listed at once with the value of a non-secret quoted and a secret's
 * never (not even when its file is the problem), NAME_FILE holds a secret, production rules apply with APP_ENV unset.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.ts';
import { deepFreeze, envGroup, envVar, parseEnvironment } from './config-schema.ts';
import { flag, integer, text } from './config-types.ts';

const Demo = envGroup({
  id: 'demo',
  title: 'Demo',
  summary: 'Variables of this test.',
  vars: {
    COUNT: envVar(integer({ min: 1, max: 9, default: 3 }), { description: 'a count' }),
    NAME: envVar(text({ default: 'x', max: 4 }), { description: 'a name' }),
    TOKEN: envVar(text({ pattern: /^.{8,}$/, patternError: 'must be at least 8 characters' }), {
      description: 'a token',
      secret: true,
    }),
    DEBUG_ONLY: envVar(flag(false), {
      description: 'refused in production',
      production: { refuse: (v) => v === true, why: 'a production start refuses it' },
    }),
    NEEDED: envVar(text(), { description: 'needed in production', production: { required: true } }),
  },
  checks: [
    {
      vars: ['COUNT', 'NAME'],
      problems: (v) => (v.COUNT === 9 && v.NAME === 'nine' ? ['COUNT: not 9 with nine'] : []),
    },
  ],
});

const dir = mkdtempSync(path.join(tmpdir(), 'cz-config-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The message `env` is refused with. */
function refusal(env: Record<string, string | undefined>): string {
  try {
    parseEnvironment([Demo], env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('parseEnvironment', () => {
  const dev = { APP_ENV: 'development' };

  it("applies the schema's defaults, blank counting as unset, and tells what was given", () => {
    const { values, given } = parseEnvironment([Demo], { ...dev, COUNT: ' ', NAME: 'ab' });
    expect(values).toMatchObject({
      COUNT: 3,
      NAME: 'ab',
      TOKEN: undefined,
      DEBUG_ONLY: false,
      APP_ENV: 'development',
    });
    expect([...given].sort()).toEqual(['APP_ENV', 'NAME']);
  });

  it("lists every problem at once, quoting a value but never a secret's", () => {
    const message = refusal({ ...dev, COUNT: 'many', NAME: 'toolong', TOKEN: 'hunter2' });
    expect(message.split('\n')).toEqual([
      'Invalid configuration (3 problems):',
      '  COUNT: must be a whole number from 1 to 9, got "many"',
      '  NAME: must be at most 4 characters, got "toolong"',
      '  TOKEN: must be at least 8 characters',
    ]);
    expect(refusal({ ...dev, COUNT: '9', NAME: 'nine' })).toBe(
      'Invalid configuration: COUNT: not 9 with nine',
    );
  });

  it('reads a secret from NAME_FILE; refuses both, or a file it cannot read, naming the path only', () => {
    const file = path.join(dir, 'token');
    writeFileSync(file, 'from-a-file-123\n');
    expect(parseEnvironment([Demo], { ...dev, TOKEN_FILE: file }).values.TOKEN).toBe('from-a-file-123');
    expect(refusal({ ...dev, TOKEN: 'abcdefgh', TOKEN_FILE: file })).toBe(
      'Invalid configuration: set TOKEN or TOKEN_FILE, not both',
    );
    const missing = path.join(dir, 'missing');
    const message = refusal({ ...dev, TOKEN_FILE: missing, COUNT: '0' });
    expect(message).toContain(`TOKEN_FILE (${missing}) cannot be read (ENOENT)`);
    expect(message).toContain('COUNT: must be at least 1, got "0"');
    writeFileSync(file, 'short\n');
    expect(refusal({ ...dev, TOKEN_FILE: file })).not.toContain('short');
  });

  it('applies the production rules when APP_ENV is production or unset', () => {
    for (const appEnv of [{}, { APP_ENV: 'production' }, { APP_ENV: 'Production' }]) {
      expect(refusal({ ...appEnv, DEBUG_ONLY: '1', NEEDED: 'yes' })).toBe(
        'Invalid configuration: DEBUG_ONLY: a production start refuses it',
      );
      expect(refusal({ ...appEnv })).toBe(
        'Invalid configuration: NEEDED: required when APP_ENV=production (the default)',
      );
    }
    expect(parseEnvironment([Demo], { APP_ENV: 'test', DEBUG_ONLY: 'yes' }).values.DEBUG_ONLY).toBe(true);
    expect(refusal({ APP_ENV: 'staging', NEEDED: 'x' })).toMatch(
      /APP_ENV: must be production, development or test/,
    );
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays', () => {
    const v = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(v.a.b[1])).toBe(true);
    expect(() => {
      (v.a.b as unknown[]).push(3);
    }).toThrow(TypeError);
  });
});
