import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The domain runs on the server and in the browser alike (ARCHITECTURE.md "Rules of the house"):
// no I/O, no Node built-ins, no React, no DOM globals, no reaching into src/server or src/web.
// Its schemas are zod/mini's, which the page parses with: zod classic would be shipped to the
// browser whole (its methods cannot be tree-shaken).

const NODE_BUILTINS = new Set([
  ...builtinModules,
  ...['fs', 'path', 'crypto', 'http', 'https', 'os', 'url', 'buffer', 'child_process'],
  ...['stream', 'util', 'events', 'net', 'tls', 'zlib', 'worker_threads', 'process'],
]);
const FORBIDDEN_PACKAGES = ['react', 'react-dom'];
/** zod classic; the domain imports 'zod/mini' (and 'zod/v4/core' for types). */
const ZOD_CLASSIC = new Set(['zod', 'zod/v4', 'zod/v3']);
const FORBIDDEN_GLOBALS = /\b(process|window|document)\./;

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

const withoutComments = (source: string): string =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

/**
 * What makes a domain source impure, one line per problem. `dirInDomain` is the file's folder
 * relative to src/domain ('' for the root), so relative imports can be followed.
 */
function purityViolations(source: string, dirInDomain: string): string[] {
  const code = withoutComments(source);
  const problems: string[] = [];
  for (const [, specifier = ''] of code.matchAll(SPECIFIERS)) {
    if (specifier.startsWith('.')) {
      const target = posix.normalize(posix.join(dirInDomain, specifier));
      if (target.startsWith('..')) problems.push(`imports outside src/domain: ${specifier}`);
      continue;
    }
    const root = specifier.startsWith('@')
      ? specifier.split('/').slice(0, 2).join('/')
      : (specifier.split('/')[0] ?? specifier);
    if (specifier.startsWith('node:') || NODE_BUILTINS.has(root)) {
      problems.push(`imports a Node built-in: ${specifier}`);
    }
    if (FORBIDDEN_PACKAGES.includes(root)) problems.push(`imports React: ${specifier}`);
    if (ZOD_CLASSIC.has(specifier)) problems.push(`imports zod classic: ${specifier}`);
    if (/(^|\/)src\/(server|web)(\/|$)/.test(specifier)) {
      problems.push(`imports src/server or src/web: ${specifier}`);
    }
  }
  const global = FORBIDDEN_GLOBALS.exec(code);
  if (global) problems.push(`uses the global ${global[1]}`);
  return problems;
}

const DOMAIN = fileURLToPath(new URL('.', import.meta.url));

function domainSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : domainSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('src/domain purity', () => {
  const files = domainSources(DOMAIN);

  it('finds the domain sources', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((file) => [relative(DOMAIN, file), file]))(
    '%s imports nothing impure and touches no process, window or document',
    (name, file) => {
      const dir = posix.dirname(name.split('\\').join('/'));
      expect(purityViolations(readFileSync(file, 'utf8'), dir === '.' ? '' : dir)).toEqual([]);
    },
  );
});

describe('purityViolations', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';", 'imports a Node built-in: node:fs'],
    ["import path from 'path';", 'imports a Node built-in: path'],
    ["import { createHash } from 'crypto';", 'imports a Node built-in: crypto'],
    ["const os = require('os');", 'imports a Node built-in: os'],
    ["export { EventEmitter } from 'events';", 'imports a Node built-in: events'],
    ["import { useState } from 'react';", 'imports React: react'],
    ["import { createRoot } from 'react-dom/client';", 'imports React: react-dom/client'],
    ["import { z } from 'zod';", 'imports zod classic: zod'],
    ["import * as z from 'zod/v4';", 'imports zod classic: zod/v4'],
    ["import { buildApp } from '../server/app';", 'imports outside src/domain: ../server/app'],
    ["import { api } from '../../web/api/http';", 'imports outside src/domain: ../../web/api/http'],
    ["const m = await import('src/server/db');", 'imports src/server or src/web: src/server/db'],
    ['const port = process.env.PORT;', 'uses the global process'],
    ['const w = window.innerHeight;', 'uses the global window'],
    ["document.title = 'x';", 'uses the global document'],
  ])('flags %j', (source, problem) => {
    expect(purityViolations(source, '')).toContain(problem);
  });

  it.each([
    ["import { z } from 'zod/mini';", ''],
    ["import type { $ZodType } from 'zod/v4/core';", ''],
    ["import { ZKobo } from './consent';", 'schemas'],
    ["import { ERROR_CATALOGUE } from '../errors';", 'schemas'],
    ['// window.innerHeight is read by the page, not here', ''],
    ['/* process.env never */ const a = 1;', ''],
  ])('accepts %j', (source, dir) => {
    expect(purityViolations(source, dir)).toEqual([]);
  });
});
