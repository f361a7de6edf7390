// Makes (or finds in its cache) the PGlite template once per test run: server tests then open
// their in-memory databases from it instead of running initdb and every migration per file. Where
// DATABASE_URL names a PostgreSQL, a migrated template database is made there too, once per run:
// each test file's database is a copy of it (`create database … template`), not 50 migrations.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/server/db/database';
import { pgliteTemplate } from './build-server';

declare module 'vitest' {
  /** The tags tests may carry (vitest.config.ts defines them). */
  export interface TestTags {
    tags: 'postgres';
  }
  export interface ProvidedContext {
    /** Path of the gzipped, migrated PGlite data directory (scripts/build-server.ts). */
    pgliteTemplate: string;
    /** The migrated PostgreSQL database test databases are copied from, where DATABASE_URL is set. */
    postgresTemplate: string | null;
  }
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A migrated database on the PostgreSQL `url` names, and how to drop it. */
async function postgresTemplate(url: string) {
  const name = `test_template_${randomBytes(6).toString('hex')}`;
  await admin(url, `create database ${name}`);
  const own = Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  const database = await openDatabase({ kind: 'postgres', url: own });
  await database.close();
  return { name, drop: () => admin(url, `drop database if exists ${name} with (force)`) };
}

export default async function setup(project: TestProject) {
  project.provide('pgliteTemplate', await pgliteTemplate());
  const url = process.env.DATABASE_URL;
  const template = url ? await postgresTemplate(url) : null;
  project.provide('postgresTemplate', template?.name ?? null);
  return async () => {
    await template?.drop();
  };
}
