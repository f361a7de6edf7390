// Makes (or finds in its cache) the PGlite template once per test run: server tests then open
// their in-memory databases from it instead of running initdb and every migration per file.
import type { TestProject } from 'vitest/node';
import { pgliteTemplate } from './build-server';

declare module 'vitest' {
  /** The tags tests may carry (vitest.config.ts defines them). */
  export interface TestTags {
    tags: 'postgres';
  }
  export interface ProvidedContext {
    /** Path of the gzipped, migrated PGlite data directory (scripts/build-server.ts). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  project.provide('pgliteTemplate', await pgliteTemplate());
}
