import { describe, expect, it } from 'vitest';
import { checkFormSection } from '../../../domain/forms';
import { SAMPLE_FORM } from '../../../domain/test-support/form-fixtures';
import { sectionAnswers, sectionValues } from './form-values';

const [about, health, agreement] = SAMPLE_FORM.sections;
if (!about || !health || !agreement) throw new Error('the sample form has three sections');

describe('a section between its inputs and its answers', () => {
  it('turns typed numbers into numbers, blanks into no answer, and yes/no into booleans', () => {
    const answers = sectionAnswers(health, {
      heartCondition: 'no',
      weightKg: ' 72 ',
      goal: 'fitness',
      days: ['mon'],
    });
    expect(answers).toEqual({
      heartCondition: false,
      weightKg: 72,
      goal: 'fitness',
      days: ['mon'],
    });
    expect(sectionAnswers(health, { heartCondition: '', weightKg: '' })).toMatchObject({
      heartCondition: null,
      weightKg: null,
    });
  });

  it('keeps what is not a number as typed, so the number check names it', () => {
    const answers = sectionAnswers(health, { weightKg: 'seventy' });
    expect(answers.weightKg).toBe('seventy');
    expect(checkFormSection(health, answers).errors.weightKg).toBe('Enter a number');
  });

  it('an agreement to tick is true or false, and false fails it', () => {
    const answers = sectionAnswers(agreement, { idDocument: 'ffl_1', terms: false });
    expect(answers).toEqual({ idDocument: 'ffl_1', terms: false });
    expect(checkFormSection(agreement, answers).errors.terms).toBe('You must agree to continue');
  });

  it('round-trips saved answers into the inputs', () => {
    const saved = { fullName: 'Ada', email: 'ada@example.ng', phone: '0803 123 4567' };
    const values = sectionValues(about, saved);
    expect(values).toEqual({ ...saved, birthDate: '', notes: '' });
    expect(sectionAnswers(about, values)).toEqual({ ...saved, birthDate: null, notes: null });
    expect(sectionValues(health, { heartCondition: true, weightKg: 70 })).toMatchObject({
      heartCondition: 'yes',
      weightKg: '70',
      days: [],
    });
  });
});
