import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** app/ never imports platform/ (ARCHITECTURE "Boundaries"); repeated where another rule sets the same option. */
const appNotPlatform = { group: ['**/platform/**'], message: 'app/ reaches the platform only over HTTP' };

/**
 * Comments cite the spec section (`spec 02 §4`) or the decision record (`decision 035`), never a tracker's issue
 * number: whoever maintains the code has neither the tracker nor its history. Catches "issue" or "issues" followed by
 * a number (after a space, `#`, `-` or `_`, also across a block comment's line break and `*`, any case), and `#`
 * with a number in parentheses or after see, fixes, closes, refs, PR or GH; a bare `#` with a number, PKCS#8 and
 * colours are left alone.
 */
const ISSUE_REF =
  /\bissues?(?:\s*#\s*|[\s_-]+(?:\*\s+)?)\d+|(?:\(|\b(?:see|fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|pr|gh)\s+)#\d+\b/gi;
const local = {
  rules: {
    'no-issue-refs': {
      meta: {
        type: 'suggestion',
        docs: { description: 'comments cite the spec section or the decision record, not an issue number' },
        schema: [],
        messages: {
          issueRef: 'cite the spec section or the decision record, not an issue number ("{{ref}}")',
        },
      },
      create(context) {
        const { sourceCode } = context;
        return {
          Program() {
            for (const comment of sourceCode.getAllComments()) {
              // the comment's text starts after `//` or `/*`
              const start = comment.range[0] + 2;
              for (const match of comment.value.matchAll(ISSUE_REF)) {
                const from = start + match.index;
                context.report({
                  loc: {
                    start: sourceCode.getLocFromIndex(from),
                    end: sourceCode.getLocFromIndex(from + match[0].length),
                  },
                  messageId: 'issueRef',
                  data: { ref: match[0] },
                });
              }
            }
          },
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'build',
      'build-offline',
      'data',
      '.react-router',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    plugins: { local },
    rules: { 'local/no-issue-refs': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['server/**/*.ts', 'platform/**/*.ts', 'lib/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // No source file over 300 lines (ARCHITECTURE "Layout by area"; decision 061): a module that grows past it
    // holds more than one concern and splits by concern. Tests and fixtures may be longer.
    files: ['**/*.{ts,tsx,js}'],
    ignores: ['**/*.test.ts', '**/*.spec.ts', 'tests/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Configuration is read once per process, through its schema, and passed down (docs/decisions/050-configuration.md):
    // only the modules that read the environment may touch process.env. Test harness and benches ask their support
    // module; tool configs read their own knobs.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: [
      'lib/config-schema.ts', // processEnvironment(): what server/, platform/ and witness/ config modules read
      'tests/support/environment.ts',
      'bench/support/environment.ts',
      'playwright.config.ts',
      'tests/container/playwright.config.ts',
      'vitest.config.ts',
      'vite.config.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'read configuration once through the process schema (server/config/server.ts, platform/config.ts, witness/config.ts) and pass it down; tests and benches use their support/environment.ts',
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [appNotPlatform] }],
      // Page actions read bodies within bounds (app/lib/form-body.server.ts, decision 024), never unbounded.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='formData'][callee.object.name='request']",
          message:
            'read page forms with readForm (app/lib/form-body.server.ts): request.formData() is unbounded',
        },
        {
          selector:
            "CallExpression[callee.name='useForm'] > ObjectExpression:not(:has(Property[key.name='id']))",
          message:
            'give useForm an explicit id: the server (React) and the browser (Preact) generate different useId values (docs/decisions/031)',
        },
      ],
    },
  },
  {
    // The shell (top bar, footer, notices, form pieces) is the frame of every area's pages and imports none of them:
    // what it shows of an area (verification links, legal paths) the root route hands it. Area folders are every
    // folder of app/ but lib/ and shell/, imported relatively (`../kyc/…`) or through the `~/` alias.
    files: ['app/shell/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appNotPlatform,
            {
              regex: '^(?:\\.\\./|~/)(?!(?:lib|shell)/)[^./][^/]*/',
              message: 'app/shell imports no business area: take what it needs as props from app/root.tsx',
            },
          ],
        },
      ],
    },
  },
  {
    // Every page loads the root route and the shell: a value import of a contract module that builds zod schemas
    // there pulls zod (about 100 KB) into every page's JavaScript (bench/page-weight.ts). Only the zod-free modules
    // (messages, envelope) may be imported for values; types from anywhere.
    files: ['app/root.tsx', 'app/shell/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/contract/*', '!**/contract/messages.ts', '!**/contract/envelope.ts'],
              allowTypeImports: true,
              message:
                'the root and the shell import values only from contract/messages.ts and contract/envelope.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared plumbing of both processes (configuration machinery, logs, request ids, traces, outbound proxy,
    // private and secret files) serves whichever part imports it and knows none of them (docs/decisions/061).
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/server/**', '**/platform/**'],
              message: 'lib/ is shared plumbing: it imports nothing from app/, server/ or platform/',
            },
          ],
        },
      ],
    },
  },
  {
    // The gateway fronts any upstream (UPSTREAM_URL), so it depends on the platform only to start the embedded one:
    // server/embedded-platform.ts is the one module that imports platform/, and hands the rest of server/ what it
    // needs (the platform's config groups, the evidence events' signal). Shared plumbing comes from lib/. Tests may
    // drive the real platform (docs/decisions/061).
    files: ['server/**/*.ts'],
    ignores: ['server/embedded-platform.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/platform/**'],
              message:
                'the gateway fronts any upstream: take the platform through server/embedded-platform.ts, shared plumbing from lib/',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**', '**/server/**'], message: 'platform/ never imports app/ or server/' },
          ],
        },
      ],
    },
  },
  {
    // Areas of the platform share services, never route modules: only platform/app.ts composes the routes
    // (docs/decisions/016-files-and-services.md). Repeats the rule above because a later block replaces its options.
    files: ['platform/*/**/*.ts'],
    ignores: ['platform/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**', '**/server/**'], message: 'platform/ never imports app/ or server/' },
            {
              group: ['../*/routes.ts', '../*/*-routes.ts'],
              message:
                "an area never imports another area's routes: move what it needs into that area's service",
            },
          ],
        },
      ],
    },
  },
);
