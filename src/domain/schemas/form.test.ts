import { describe, expect, it } from 'vitest';
import { SAMPLE_FORM_INPUT } from '../test-support/form-fixtures';
import { FORM_MAX_FIELDS, ZFormAnswers, ZFormDefinition } from './form';

/** The first issue of a refused definition as 'path: message'. */
function firstIssue(input: unknown): string {
  const result = ZFormDefinition.safeParse(input);
  if (result.success) return 'accepted';
  const issue = result.error.issues[0];
  return `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`;
}

const withField = (field: Record<string, unknown>) => ({
  title: 'T',
  sections: [{ id: 's', title: 'S', fields: [{ id: 'f', label: 'F', ...field }] }],
});

describe('form definition', () => {
  it('accepts a form with a field of every kind and fills the defaults', () => {
    const form = ZFormDefinition.parse(SAMPLE_FORM_INPUT);
    const file = form.sections[2]?.fields[0];
    expect(file).toMatchObject({ kind: 'file', required: true, maxBytes: 1024 * 1024 });
    expect(file && 'accept' in file ? file.accept : []).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
      'application/pdf',
    ]);
    expect(form.sections[0]?.fields[0]).toMatchObject({ maxLength: 500 });
  });

  it.each([
    ['an unknown kind', withField({ kind: 'signature' }), 'sections.0.fields.0.kind'],
    [
      'a label too long',
      withField({ kind: 'email', label: 'x'.repeat(301) }),
      'sections.0.fields.0.label',
    ],
    [
      'an id with a space',
      withField({ kind: 'email', id: 'first name' }),
      'sections.0.fields.0.id',
    ],
    [
      'a choice of one option',
      withField({ kind: 'single_choice', options: [{ value: 'a', label: 'A' }] }),
      'sections.0.fields.0.options',
    ],
    [
      'a file type we do not take',
      withField({ kind: 'file', accept: ['image/svg+xml'] }),
      'sections.0.fields.0.accept.0',
    ],
    [
      'a file limit past 10 MB',
      withField({ kind: 'file', maxBytes: 11 * 1024 * 1024 }),
      'sections.0.fields.0.maxBytes',
    ],
    ['min above max', withField({ kind: 'number', min: 5, max: 1 }), 'sections.0.fields.0.min'],
    ['an unknown property', withField({ kind: 'email', colour: 'red' }), 'sections.0.fields.0'],
  ])('refuses %s, naming the field', (_name, input, path) => {
    expect(firstIssue(input)).toMatch(new RegExp(`^${path.replace(/\./g, '\\.')}: `));
  });

  it('refuses repeated ids, naming the repeat', () => {
    const twice = {
      title: 'T',
      sections: [
        { id: 's', title: 'S', fields: [{ id: 'f', kind: 'email', label: 'F' }] },
        { id: 't', title: 'T', fields: [{ id: 'f', kind: 'phone', label: 'F' }] },
      ],
    };
    expect(firstIssue(twice)).toBe(
      'sections.1.fields.0.id: field ids must be unique across the form',
    );
  });

  it(`refuses a form of more than ${FORM_MAX_FIELDS} fields, such as one of 1,000`, () => {
    const sections = Array.from({ length: 20 }, (_, s) => ({
      id: `s${s}`,
      title: `Section ${s}`,
      fields: Array.from({ length: 50 }, (_, f) => ({
        id: `f${s}_${f}`,
        kind: 'email',
        label: 'E',
      })),
    }));
    expect(firstIssue({ title: 'Big', sections })).toBe(
      'sections: a form holds at most 200 fields (this one has 1000)',
    );
  });

  it('takes answers by field id, and refuses other keys and values', () => {
    expect(ZFormAnswers.safeParse({ a: 'x', b: 2, c: true, d: ['x'], e: null }).success).toBe(true);
    expect(ZFormAnswers.safeParse({ 'not an id': 'x' }).success).toBe(false);
    expect(ZFormAnswers.safeParse({ a: { nested: 1 } }).success).toBe(false);
  });
});
