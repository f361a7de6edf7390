// docs/sandbox.md shows the same test data as GET /api/sandbox/fixtures: its
// tables are parsed and compared with the fixtures, so neither can change alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxFixtures } from './routes/sandbox-fixtures';
import { formatNigerianPhone } from '../../domain/schemas/auth';
import { SANDBOX_ACCOUNTS, SANDBOX_CARDS, SANDBOX_CHIP_CARDS, SANDBOX_PEOPLE } from './fixtures';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/sandbox.md'), 'utf8');

/** Every markdown table of the doc: its header cells and its rows of cells. */
function tablesOf(markdown: string): Array<{ header: string[]; rows: string[][] }> {
  const cellsOf = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
  const blocks: string[][] = [];
  let block: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.trim().startsWith('|')) block.push(line);
    else if (block.length > 0) {
      blocks.push(block);
      block = [];
    }
  }
  if (block.length > 0) blocks.push(block);
  return blocks.map(([header = '', , ...rows]) => ({
    header: cellsOf(header),
    rows: rows.map(cellsOf),
  }));
}

/** The doc's table with exactly these columns, as objects keyed by them. */
function tableWith(columns: string[]): Array<Record<string, string>> {
  const matching = tablesOf(doc).filter((table) => table.header.join() === columns.join());
  expect(matching, `one table with columns ${columns.join(', ')}`).toHaveLength(1);
  return matching[0]!.rows.map((cells) =>
    Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])),
  );
}

const fixtures = sandboxFixtures();

describe('docs/sandbox.md', () => {
  it('lists the banks of the fixtures, with their integrations', () => {
    const banks = tableWith(['institutionCode', 'name', 'integrations']).map((row) => ({
      ...row,
      integrations: row.integrations === '—' ? [] : row.integrations!.split(/,\s*/),
    }));
    expect(banks).toEqual(fixtures.banks);
  });

  it('lists the people of the BVN registry, with the phone each BVN is registered with', () => {
    expect(tableWith(['bvn', 'fullName', 'dateOfBirth', 'phoneNumber'])).toEqual(fixtures.people);
  });

  it('says which person’s BVN is registered to a phone they do not sign in with, and both numbers', () => {
    const oldLines = SANDBOX_PEOPLE.filter((person) => person.phoneNumber !== person.signInPhone);
    expect(oldLines.length).toBeGreaterThan(0);
    for (const person of oldLines) {
      const section = doc.slice(doc.indexOf('### People (test BVNs)'));
      const sentence = new RegExp(
        `${person.fullName}: his BVN is registered to ${formatNigerianPhone(person.phoneNumber)}[^.]*signs in with ${formatNigerianPhone(person.signInPhone)}`.replace(
          / /g,
          '\\s+',
        ),
      );
      expect(section).toMatch(sentence);
    }
  });

  it('lists the accounts of the fixtures, each with its holder’s BVN', () => {
    expect(
      tableWith(['accountNumber', 'institutionCode', 'accountName', 'bvn', 'scenario']),
    ).toEqual(fixtures.accounts);
  });

  it('lists the cards of the fixtures', () => {
    expect(
      tableWith([
        'number',
        'expiry',
        'cvv',
        'pin',
        'otp',
        'brand',
        'scenario',
        'institutionCode',
        'accountNumber',
      ]),
    ).toEqual(fixtures.cards);
  });

  it('lists the card readers and the chip cards of the fixtures', () => {
    expect(tableWith(['serial', 'tid', 'mid'])).toEqual(fixtures.readers);
    expect(tableWith(['number', 'expiry', 'pin', 'serviceCode', 'brand', 'scenario'])).toEqual(
      fixtures.chipCards,
    );
  });

  it('explains every scenario word the fixtures use', () => {
    const scenarios = new Set(
      [...SANDBOX_CARDS, ...SANDBOX_ACCOUNTS, ...SANDBOX_CHIP_CARDS].map((item) => item.scenario),
    );
    for (const scenario of scenarios) expect(doc).toContain(`- \`${scenario}\`: `);
  });
});
