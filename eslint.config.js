import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** The page's features, each a folder of src/web/features: a new one is covered by being made. */
const features = readdirSync(`${root}/src/web/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The product's own files: what runs or ships (src/, and the operator's scripts), not the tests
 * and not the support they share (src/server/testing/, src/domain/test-support/, the contract
 * suites). Tests, tests/, bench/ and vitest's global setup are not in it.
 */
const productFiles = [
  './src/!(server|domain)/**/!(*.test).{ts,tsx}',
  './src/{server,domain}/!(*.test|*.contract).ts',
  './src/server/!(testing)/**/!(*.test|*.contract).ts',
  './src/domain/!(test-support)/**/!(*.test).ts',
  './scripts/!(vitest-global-setup).ts',
];

/** The server's route files: the product's calls, and the sandbox's own pages and calls. */
const serverRoutes = ['./src/server/routes', './src/server/sandbox/routes'];

/**
 * Who may not import whom (ARCHITECTURE.md "One package, four rooms", STYLE.md "Shape"). Paths
 * are from the repository root; type-only imports count too, since a type drags its module's
 * shape across the boundary.
 */
const boundaries = [
  {
    target: './src/domain',
    from: ['./src/server', './src/web', './src/sdk'],
    message: 'src/domain imports nothing from server, web or sdk: both sides import it.',
  },
  {
    target: './src/web',
    from: './src/server',
    message: 'The page talks to the server only over HTTP, through src/web/api.',
  },
  {
    target: './src/web/features',
    from: './src/web/app',
    message: 'Features never import app/: the app layer composes the features, not back.',
  },
  {
    // The slot contracts sit below every feature and app/, which all import them: they import
    // nothing of the page back, or a change to a screen would reach them and close a circle.
    target: './src/web/contracts',
    from: './src/web',
    except: ['./contracts'],
    message: "src/web/contracts holds the slots' types: it imports only React's and the domain's.",
  },
  // A feature imports its own sub-folders, ui/, api/, contracts/ and the domain; never another
  // feature: a screen of another feature comes in through a slot typed in contracts/.
  ...features.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message:
      'A feature imports only itself, ui/, api/, contracts/ and the domain, never another feature.',
  })),
  {
    // Route files, not their tests: a test may read the database to check what a call wrote.
    target: serverRoutes.map((folder) => `${folder}/**/!(*.test).ts`),
    from: './src/server/db',
    message: 'Routes never import db/: a route calls a service, which owns the SQL.',
  },
  {
    target: [
      './src/server/services',
      './src/server/db',
      './src/server/providers',
      './src/server/events',
      // The sandbox's adapter and services beside its routes/ (its tests may call a route's
      // answer builder, as sandbox-doc.test.ts checks the fixtures answer against the docs).
      './src/server/sandbox/!(*.test).ts',
    ],
    from: serverRoutes,
    message: 'Routes → services → db/providers/events, never back.',
  },
  {
    target: productFiles,
    from: ['./src/server/testing', './src/domain/test-support'],
    message: 'Test support is for tests: no product file imports it.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'data',
      'src/server/db/migrations',
      // The released embed scripts, as built (scripts/build-sdk.ts).
      'sdk-releases',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Follow imports into TypeScript files too (the default is JavaScript only).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Fastify plugins and handlers, and test doubles of async ports, are async by contract
      // whether or not they await; the rule would only make them lie about their type.
      '@typescript-eslint/require-await': 'off',
      // No import-x/no-cycle: src/import-cycles.test.ts finds every circle the rule would, and
      // those of type-only imports too, which the rule does not follow: the check runs once.
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaries }],
    },
  },
  {
    // Configuration files in JavaScript: no types to check them with.
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read answers through light-my-request's and Playwright's `json(): any` and say
    // what they expect of them with expect(); typing each read would only restate the assertion.
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.contract.ts',
      'src/server/testing/**/*.ts',
      'tests/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Components take callbacks as props and destructure them; a prop declared as a method
      // (`onClose(): void`) is still a plain function, never bound to `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The domain is pure: no I/O, no framework, imported by both sides (ARCHITECTURE.md).
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react/*', 'node:*', ...nodeBuiltins],
              message: 'src/domain is pure TypeScript.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'src/domain/**/*.ts', 'src/sdk/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='postMessage'] > Literal[value='*']",
          message: "Never post to '*': use the embed bridge.",
        },
      ],
    },
  },
  {
    // The slot contracts are types and nothing else, so importing them pulls no code into a
    // chunk: any screen, lazy or not, may. (This replaces the postMessage rule above for these
    // files, which can hold no call.)
    files: ['src/web/contracts/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Program > :not(TSTypeAliasDeclaration, TSInterfaceDeclaration, ' +
            "ImportDeclaration[importKind='type'], ExportNamedDeclaration[exportKind='type'])",
          message: "src/web/contracts holds types only: type aliases, interfaces, 'import type'.",
        },
      ],
    },
  },
  // Plain JavaScript a merchant runs with node as it is (README, "Quickstart"): no types to check.
  {
    files: ['examples/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly' },
    },
  },
);
