// Every table that holds a payer's data (personal-data.ts) has its section in the copy of their
// data, or is left out of it with a reason: a table added with payer data and neither fails here.
import { describe, expect, it } from 'vitest';
import { EXPORT_SECTIONS } from '../../../domain/payer-rights';
import { ZPayerExport } from '../../../domain/schemas/payer-rights';
import { EXPORT_SECTION_OF_TABLE } from './export-coverage';
import { PERSONAL_DATA_RULES } from './personal-data';

/** Tables with a column that holds something of a payer: not `none`, not the sandbox's. */
const tablesOfPayerData = Object.entries(PERSONAL_DATA_RULES)
  .filter(([, columns]) =>
    Object.values(columns).some((rule) => rule !== 'none' && rule !== 'simulator'),
  )
  .map(([table]) => table)
  .sort();

const sections = Object.keys(ZPayerExport.shape).filter((key) => key !== 'preparedAt');

describe('the copy of a payer’s data', () => {
  it('gives every table holding the payer’s data a section, or says why it leaves it out', () => {
    expect(tablesOfPayerData.length).toBeGreaterThan(30);
    const placed = Object.keys(EXPORT_SECTION_OF_TABLE).sort();
    expect(tablesOfPayerData.filter((table) => !placed.includes(table))).toEqual([]);
    // And names no table that is gone, or that holds nothing of a payer.
    expect(placed.filter((table) => !tablesOfPayerData.includes(table))).toEqual([]);
  });

  it('names sections the file has, and a reason for each table it leaves out', () => {
    for (const [table, placed] of Object.entries(EXPORT_SECTION_OF_TABLE)) {
      if (typeof placed === 'string') expect(sections, table).toContain(placed);
      else expect(placed.leftOut.length, table).toBeGreaterThan(20);
    }
    // The complaints and the lookups of the BVN, the hand-overs to merchants among them.
    expect(EXPORT_SECTION_OF_TABLE.payment_complaints).toBe('complaints');
    expect(EXPORT_SECTION_OF_TABLE.bvn_lookups).toBe('bvnLookups');
  });

  it('lays out every section of the file on the printable page', () => {
    expect(['profile', ...Object.keys(EXPORT_SECTIONS)].sort()).toEqual([...sections].sort());
  });
});
