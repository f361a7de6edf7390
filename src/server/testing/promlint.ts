/*
 * What `promtool check metrics` says of a scrape, without promtool: Prometheus's text format
 * parsed as its parser (expfmt) reads it, and the rules of its linter (prometheus
 * util/promlint, as of Prometheus 2.42, Debian's promtool), each problem worded as promtool
 * words it. Checked against promtool 2.42 itself on this app's scrape (docs/operations.md).
 *
 * The format: a family's HELP and TYPE at most once each, TYPE before its samples; a sample
 * belongs to the family above it (a histogram's `_bucket`, `_sum`, `_count`, a summary's `_sum`,
 * `_count`); no series twice.
 * The linter's rules: lintHelp, lintMetricUnits, lintCounter (a counter ends `_total`, nothing
 * else does), lintHistogramSummaryReserved, lintMetricTypeInName, lintReservedChars,
 * lintCamelCase, lintUnitAbbreviations.
 */

type TFamily = { name: string; type: string; help: string | null; labels: Set<string> };

const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** promlint's units: each non-base unit and the base unit Prometheus asks for instead. */
const UNITS: Record<string, string> = {
  amperes: 'amperes',
  bytes: 'bytes',
  celsius: 'celsius',
  grams: 'grams',
  joules: 'joules',
  kelvin: 'kelvin',
  meters: 'meters',
  metres: 'metres',
  seconds: 'seconds',
  volts: 'volts',
  amps: 'amperes',
  kilograms: 'grams',
  nanoseconds: 'seconds',
  microseconds: 'seconds',
  milliseconds: 'seconds',
  minutes: 'seconds',
  hours: 'seconds',
  days: 'seconds',
  weeks: 'seconds',
  months: 'seconds',
  years: 'seconds',
  kilobytes: 'bytes',
  megabytes: 'bytes',
  gigabytes: 'bytes',
  fahrenheit: 'celsius',
  centimeters: 'meters',
  millimeters: 'meters',
  kilometers: 'meters',
};
const UNIT_ABBREVIATIONS = [
  's',
  'ms',
  'us',
  'ns',
  'sec',
  'b',
  'kb',
  'mb',
  'gb',
  'tb',
  'pb',
  'm',
  'h',
  'd',
];
const CAMEL_CASE = /[a-z][A-Z]/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+\S+(\s+\S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The family a sample of `name` belongs to, given the family above it. */
function belongs(family: TFamily, name: string): boolean {
  if (name === family.name) return true;
  const suffixes =
    family.type === 'histogram'
      ? ['_bucket', '_sum', '_count']
      : family.type === 'summary'
        ? ['_sum', '_count']
        : [];
  return suffixes.some((suffix) => name === family.name + suffix);
}

/** The problems of one family under promlint's rules, as `<name> <problem>`. */
function lintFamily({ name, type, help, labels }: TFamily): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${name} ${text}`);
  if (!help) say('no help text');
  for (const word of name.split('_')) {
    const base = UNITS[word];
    if (base && base !== word) say(`use base unit "${base}" instead of "${word}"`);
  }
  if (type === 'counter' && !name.endsWith('_total'))
    say('counter metrics should have "_total" suffix');
  if (type !== 'counter' && type !== 'untyped' && name.endsWith('_total')) {
    say('non-counter metrics should not have "_total" suffix');
  }
  if (type !== 'untyped') {
    if (type !== 'histogram' && name.endsWith('_bucket')) {
      say('non-histogram metrics should not have "_bucket" suffix');
    }
    for (const suffix of ['_count', '_sum']) {
      if (type !== 'histogram' && type !== 'summary' && name.endsWith(suffix)) {
        say(`non-histogram and non-summary metrics should not have "${suffix}" suffix`);
      }
    }
    if (type !== 'histogram' && labels.has('le'))
      say('non-histogram metrics should not have "le" label');
    if (type !== 'summary' && labels.has('quantile')) {
      say('non-summary metrics should not have "quantile" label');
    }
  }
  for (const typeName of TYPES.filter((t) => t !== 'untyped')) {
    if (name.includes(`_${typeName}_`) || name.endsWith(`_${typeName}`)) {
      say(`metric name should not include type '${typeName}'`);
    }
  }
  if (name.includes(':')) say("metric names should not contain ':'");
  if (CAMEL_CASE.test(name)) say("metric names should be written in 'snake_case' not 'camelCase'");
  if ([...labels].some((label) => CAMEL_CASE.test(label))) {
    say("label names should be written in 'snake_case' not 'camelCase'");
  }
  const lower = name.toLowerCase();
  if (
    UNIT_ABBREVIATIONS.some((unit) => lower.includes(`_${unit}_`) || lower.endsWith(`_${unit}`))
  ) {
    say('metric names should not contain abbreviated units');
  }
  return problems;
}

/** Every problem `promtool check metrics` would report of `text`; none for a clean scrape. */
export function promtoolProblems(text: string): string[] {
  const problems: string[] = [];
  const families = new Map<string, TFamily>();
  const series = new Set<string>();
  let current: TFamily | null = null;
  const familyOf = (name: string): TFamily => {
    const found = families.get(name);
    if (found) return found;
    const made: TFamily = { name, type: 'untyped', help: null, labels: new Set() };
    families.set(name, made);
    return made;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name = '', rest = ''] = meta;
      const seen = families.has(name);
      const family = familyOf(name);
      if (seen && family !== current) problems.push(`${name} second family of this name`);
      if (kind === 'HELP') {
        if (family.help !== null) problems.push(`${name} second HELP line`);
        family.help = rest;
      } else {
        if (family.type !== 'untyped' || series.has(`type:${name}`)) {
          problems.push(`${name} second TYPE line`);
        }
        if (!TYPES.includes(rest)) problems.push(`${name} unknown metric type "${rest}"`);
        family.type = rest;
        series.add(`type:${name}`);
      }
      current = family;
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) {
      problems.push(`unreadable line: ${line}`);
      continue;
    }
    const [, name = '', , labelText = ''] = sample;
    if (!current || !belongs(current, name)) {
      current = familyOf(name);
    }
    const labels = [...labelText.matchAll(LABEL)].map(
      ([, label = '', value]) => `${label}=${value}`,
    );
    for (const label of labels) current.labels.add(label.slice(0, label.indexOf('=')));
    const key = `${name}{${labels.sort().join(',')}}`;
    if (series.has(key)) problems.push(`${name} second sample of one series: ${key}`);
    series.add(key);
  }
  for (const family of families.values()) problems.push(...lintFamily(family));
  return problems;
}
