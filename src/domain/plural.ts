/**
 * '1 payment', '0 payments', '3 payments'. English reads only exactly one as singular; the spec's
 * 'payment(s)' and 'data point(s)' are written this way (spec §2).
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
