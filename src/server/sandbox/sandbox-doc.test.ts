// docs/sandbox.md shows the same test data as GET /api/sandbox/fixtures (issue 9, item 2): its
// tables are parsed and compared with the fixtures, so neither can change alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxFixtures } from './routes/sandbox-fixtures';
import { SANDBOX_ACCOUNTS, SANDBOX_CARDS, SANDBOX_CHIP_CARDS } from './fixtures';

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

  it('lists the accounts of the fixtures', () => {
    expect(tableWith(['accountNumber', 'institutionCode', 'accountName', 'scenario'])).toEqual(
      fixtures.accounts,
    );
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
