import type { TFormDefinition, TFormDefinitionInput } from '../schemas/form';
import { ZFormDefinition } from '../schemas/form';

/** A small form with one field of every kind, spread over three sections, for tests. */
export const SAMPLE_FORM_INPUT: TFormDefinitionInput = {
  title: 'Membership for {{memberName}}',
  description: 'A few questions before {{planName}} starts.',
  sections: [
    {
      id: 'about',
      title: 'About you',
      fields: [
        { id: 'fullName', kind: 'short_text', label: 'Full name', required: true, minLength: 2 },
        { id: 'email', kind: 'email', label: 'Email address', required: true },
        { id: 'phone', kind: 'phone', label: 'Mobile number', required: true },
        { id: 'birthDate', kind: 'date', label: 'Date of birth', min: '1900-01-01' },
        { id: 'notes', kind: 'long_text', label: 'Anything else?', maxLength: 200 },
      ],
    },
    {
      id: 'health',
      title: 'Health',
      fields: [
        {
          id: 'heartCondition',
          kind: 'agreement',
          label: 'Do you have a heart condition?',
          required: true,
        },
        { id: 'weightKg', kind: 'number', label: 'Weight (kg)', min: 20, max: 400, integer: true },
        {
          id: 'goal',
          kind: 'single_choice',
          label: 'Main goal',
          required: true,
          options: [
            { value: 'strength', label: 'Strength' },
            { value: 'fitness', label: 'Fitness' },
          ],
        },
        {
          id: 'days',
          kind: 'multiple_choice',
          label: 'Training days',
          maxSelected: 2,
          options: [
            { value: 'mon', label: 'Monday' },
            { value: 'wed', label: 'Wednesday' },
            { value: 'fri', label: 'Friday' },
          ],
        },
      ],
    },
    {
      id: 'agreement',
      title: 'Agreement',
      fields: [
        {
          id: 'idDocument',
          kind: 'file',
          label: 'ID document',
          required: true,
          maxBytes: 1024 * 1024,
        },
        {
          id: 'terms',
          kind: 'agreement',
          label: 'I, {{memberName}}, agree to the gym rules',
          required: true,
          mustAgree: true,
        },
      ],
    },
  ],
};

export const SAMPLE_FORM: TFormDefinition = ZFormDefinition.parse(SAMPLE_FORM_INPUT);
