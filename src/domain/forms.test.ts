import { describe, expect, it } from 'vitest';
import {
  checkFormSection,
  completedFormSections,
  fillFormPlaceholders,
  fillPlaceholders,
  formFieldError,
  formFileError,
  formFileHint,
  formPlaceholders,
  formStepFooter,
  formStepStatusText,
  isCalendarDate,
  isFormComplete,
  sectionFileIds,
  sniffFormFileType,
  unknownAnswerKeys,
} from './forms';
import type { TFormField, TFormSection } from './schemas/form';
import { ZFormField } from './schemas/form';
import { SAMPLE_FORM } from './test-support/form-fixtures';

const field = (input: Record<string, unknown>): TFormField =>
  ZFormField.parse({ id: 'f', label: 'Field', ...input });
const section = (id: string): TFormSection => {
  const found = SAMPLE_FORM.sections.find((s) => s.id === id);
  if (!found) throw new Error(`no section ${id}`);
  return found;
};

describe('placeholders', () => {
  it('lists the names a definition uses, once each, in order', () => {
    expect(formPlaceholders(SAMPLE_FORM)).toEqual(['memberName', 'planName']);
  });

  it('fills known names for the payer and leaves unknown ones out, never as braces', () => {
    expect(fillPlaceholders('Welcome, {{ memberName }}!', { memberName: 'Ada' })).toBe(
      'Welcome, Ada!',
    );
    expect(fillPlaceholders('Welcome, {{memberName}}!', {})).toBe('Welcome,!');
    expect(fillPlaceholders('Plan {{planName}} for you', {})).toBe('Plan for you');
  });

  it('keeps unknown names visible in the merchant preview', () => {
    expect(fillPlaceholders('Plan {{planName}} for {{x}}', { x: 'Ada' }, 'preview')).toBe(
      'Plan {{planName}} for Ada',
    );
  });

  it('does not read names from the object prototype', () => {
    expect(fillPlaceholders('a {{constructor}} b', {})).toBe('a b');
  });

  it('fills every text of a form: title, labels, descriptions', () => {
    const filled = fillFormPlaceholders(SAMPLE_FORM, { memberName: 'Ada', planName: 'Gold' });
    expect(filled.title).toBe('Membership for Ada');
    expect(filled.description).toBe('A few questions before Gold starts.');
    expect(section('agreement').fields[1]?.label).toContain('{{memberName}}');
    expect(filled.sections[2]?.fields[1]?.label).toBe('I, Ada, agree to the gym rules');
    expect(JSON.stringify(fillFormPlaceholders(SAMPLE_FORM, {}))).not.toContain('{{');
  });

  it('keeps a filled text within its limit, printable and never empty', () => {
    const form = { ...SAMPLE_FORM, title: '{{memberName}}' };
    expect(fillFormPlaceholders(form, {}).title).toBe('Member name');
    expect(fillFormPlaceholders(form, { memberName: 'A\u0000da' }).title).toBe('Ada');
    const long = fillFormPlaceholders(form, { memberName: 'x'.repeat(400) }).title;
    expect(long).toHaveLength(300);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('answers of each kind', () => {
  it('requires a required field and lets an optional one be empty', () => {
    expect(formFieldError(field({ kind: 'short_text', required: true }), '  ')).toBe(
      'This field is required',
    );
    expect(formFieldError(field({ kind: 'short_text' }), undefined)).toBeNull();
    expect(
      formFieldError(
        field({
          kind: 'multiple_choice',
          required: true,
          options: [
            { value: 'a', label: 'A' },
            { value: 'b', label: 'B' },
          ],
        }),
        [],
      ),
    ).toBe('This field is required');
  });

  it('checks text length and printability', () => {
    const f = field({ kind: 'short_text', minLength: 3, maxLength: 5 });
    expect(formFieldError(f, 'ab')).toBe('Enter at least 3 characters');
    expect(formFieldError(f, 'abcdef')).toBe('Enter at most 5 characters');
    expect(formFieldError(f, 'ab\u0000c')).toBe('Use letters, digits and punctuation only');
    expect(formFieldError(f, 'abcd')).toBeNull();
  });

  it('checks numbers: type, whole, range', () => {
    const f = field({ kind: 'number', min: 1, max: 10, integer: true });
    expect(formFieldError(f, '5')).toBe('Enter a number');
    expect(formFieldError(f, 2.5)).toBe('Enter a whole number');
    expect(formFieldError(f, 0)).toBe('Enter a number of at least 1');
    expect(formFieldError(f, 11)).toBe('Enter a number of at most 10');
    expect(formFieldError(f, 10)).toBeNull();
  });

  it('checks email addresses', () => {
    const f = field({ kind: 'email' });
    expect(formFieldError(f, 'ada@example')).toBe('Enter a valid email address');
    expect(formFieldError(f, 'ada@example.ng')).toBeNull();
  });

  it('takes Nigerian mobile numbers as people write them and refuses others', () => {
    const f = field({ kind: 'phone' });
    for (const ok of ['0803 123 4567', '+234 803 123 4567', '2349031234567']) {
      expect(formFieldError(f, ok)).toBeNull();
    }
    for (const bad of ['0603 123 4567', '+44 7700 900123', '12345']) {
      expect(formFieldError(f, bad)).toBe('Enter a Nigerian mobile number, e.g. 0803 123 4567');
    }
  });

  it('checks dates: real days within the range', () => {
    const f = field({ kind: 'date', min: '2000-01-01', max: '2010-12-31' });
    expect(isCalendarDate('2023-02-30')).toBe(false);
    expect(formFieldError(f, '2003-02-30')).toBe('Enter a date');
    expect(formFieldError(f, '1999-12-31')).toBe('Enter a date on or after 2000-01-01');
    expect(formFieldError(f, '2011-01-01')).toBe('Enter a date on or before 2010-12-31');
    expect(formFieldError(f, '2004-02-29')).toBeNull();
  });

  it('checks choices against the options', () => {
    const options = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
      { value: 'c', label: 'C' },
    ];
    const single = field({ kind: 'single_choice', options });
    expect(formFieldError(single, 'z')).toBe('Choose one of the options');
    expect(formFieldError(single, 'b')).toBeNull();
    const multiple = field({ kind: 'multiple_choice', options, minSelected: 2, maxSelected: 2 });
    expect(formFieldError(multiple, ['a'])).toBe('Choose at least 2 options');
    expect(formFieldError(multiple, ['a', 'b', 'c'])).toBe('Choose at most 2 options');
    expect(formFieldError(multiple, ['a', 'a'])).toBe('Choose from the options');
    expect(formFieldError(multiple, ['a', 'z'])).toBe('Choose from the options');
    expect(formFieldError(multiple, ['a', 'c'])).toBeNull();
  });

  it("takes 'No' as an answer to a yes/no question, but only 'Yes' to an agreement", () => {
    const question = field({ kind: 'agreement', required: true });
    expect(formFieldError(question, false)).toBeNull();
    expect(formFieldError(question, undefined)).toBe('This field is required');
    const agreement = field({ kind: 'agreement', required: true, mustAgree: true });
    expect(formFieldError(agreement, false)).toBe('You must agree to continue');
    expect(formFieldError(agreement, true)).toBeNull();
  });
});

describe('sections and the form', () => {
  const about = { fullName: 'Ada Obi', email: 'ada@example.ng', phone: '08031234567' };

  it('marks a section complete when its required fields are valid, naming each failing field', () => {
    expect(checkFormSection(section('about'), about)).toEqual({ complete: true, errors: {} });
    expect(checkFormSection(section('about'), { ...about, phone: '123', fullName: '' })).toEqual({
      complete: false,
      errors: {
        fullName: 'This field is required',
        phone: 'Enter a Nigerian mobile number, e.g. 0803 123 4567',
      },
    });
  });

  it('a present optional answer that fails its check keeps the section incomplete', () => {
    expect(checkFormSection(section('about'), { ...about, birthDate: '1800-01-01' }).complete).toBe(
      false,
    );
  });

  it('finds answers that name no field of the section', () => {
    expect(unknownAnswerKeys(section('about'), { ...about, goal: 'x' })).toEqual(['goal']);
  });

  it('is complete only when every section is', () => {
    const answers = {
      about,
      health: { heartCondition: false, goal: 'fitness' },
      agreement: { idDocument: 'ffl_1', terms: false },
    };
    expect(completedFormSections(SAMPLE_FORM, answers)).toEqual(['about', 'health']);
    expect(isFormComplete(SAMPLE_FORM, answers)).toBe(false);
    expect(formStepStatusText(false)).toBe('Complete all form sections to continue.');
    const done = { ...answers, agreement: { idDocument: 'ffl_1', terms: true } };
    expect(isFormComplete(SAMPLE_FORM, done)).toBe(true);
    expect(formStepStatusText(true)).toBe('All sections completed! Ready to continue.');
    expect(sectionFileIds(section('agreement'), done.agreement)).toEqual(['ffl_1']);
  });

  it("the footer: the status and 'Next Step' for a payer; in public mode, read-only, neither", () => {
    expect(formStepFooter({ publicView: false, allComplete: false, showNextStep: true })).toEqual({
      status: 'Complete all form sections to continue.',
      nextStep: { enabled: false },
    });
    expect(formStepFooter({ publicView: false, allComplete: true, showNextStep: true })).toEqual({
      status: 'All sections completed! Ready to continue.',
      nextStep: { enabled: true },
    });
    // The flow answers the step itself ('Consent' / 'Decline').
    expect(formStepFooter({ publicView: false, allComplete: true, showNextStep: false })).toEqual({
      status: 'All sections completed! Ready to continue.',
      nextStep: null,
    });
    for (const allComplete of [false, true]) {
      expect(formStepFooter({ publicView: true, allComplete, showNextStep: true })).toEqual({
        status: null,
        nextStep: null,
      });
    }
  });
});

describe('files', () => {
  const bytes = (...b: number[]) => new Uint8Array([...b, ...new Array<number>(16).fill(0)]);

  it('tells JPEG, PNG, WebP and PDF apart by their first bytes', () => {
    expect(sniffFormFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffFormFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe(
      'image/png',
    );
    expect(
      sniffFormFileType(bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50)),
    ).toBe('image/webp');
    expect(sniffFormFileType(new TextEncoder().encode('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffFormFileType(new TextEncoder().encode('<svg xmlns="..."/>'))).toBeNull();
    expect(sniffFormFileType(new TextEncoder().encode('MZ executable'))).toBeNull();
    expect(sniffFormFileType(new Uint8Array([0xff]))).toBeNull();
  });

  it("refuses a file whose content is not one of the field's types, or too large", () => {
    const f = field({ kind: 'file', accept: ['image/png', 'application/pdf'], maxBytes: 1000 });
    if (f.kind !== 'file') throw new Error('file field expected');
    expect(formFileHint(f)).toBe('PNG or PDF, up to 1 KB');
    expect(formFileError(f, { size: 10, sniffedType: 'image/jpeg' })).toBe(
      'Upload PNG or PDF, up to 1 KB',
    );
    expect(formFileError(f, { size: 10, sniffedType: null })).toBe('Upload PNG or PDF, up to 1 KB');
    expect(formFileError(f, { size: 1001, sniffedType: 'image/png' })).toBe(
      'The file is larger than 1 KB',
    );
    expect(formFileError(f, { size: 0, sniffedType: null })).toBe('The file is empty');
    expect(formFileError(f, { size: 1000, sniffedType: 'application/pdf' })).toBeNull();
  });
});
