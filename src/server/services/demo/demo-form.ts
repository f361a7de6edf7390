import { ZFormDefinition } from '../../../domain/schemas/form';

/** The demo consent "everything"'s form: a gym's membership health questionnaire. */
export const DEMO_FORM_ID = 'form_demo_kyc';

/** The placeholders the demo consent fills in its form. */
export const DEMO_FORM_VALUES = { clubName: 'Lagos Fitness Club' };

export const DEMO_FORM = ZFormDefinition.parse({
  title: 'Gym membership questionnaire',
  description: 'A few questions before your membership starts. It takes about two minutes.',
  sections: [
    {
      id: 'about',
      title: 'About you',
      fields: [
        {
          id: 'fullName',
          kind: 'short_text',
          label: 'Full name',
          required: true,
          minLength: 2,
          maxLength: 100,
        },
        {
          id: 'phone',
          kind: 'phone',
          label: 'Mobile number',
          help: 'For example 0803 123 4567',
          required: true,
        },
        { id: 'email', kind: 'email', label: 'Email address' },
        {
          id: 'dateOfBirth',
          kind: 'date',
          label: 'Date of birth',
          required: true,
          min: '1900-01-01',
        },
        {
          id: 'emergencyContact',
          kind: 'phone',
          label: 'Emergency contact number',
          required: true,
        },
      ],
    },
    {
      id: 'health',
      title: 'Health questionnaire',
      description: 'Our trainers use your answers to keep you safe while you train.',
      fields: [
        {
          id: 'heartCondition',
          kind: 'agreement',
          label: 'Has a doctor ever said you have a heart condition?',
          required: true,
        },
        {
          id: 'chestPain',
          kind: 'agreement',
          label: 'Do you feel pain in your chest when you exercise?',
          required: true,
        },
        {
          id: 'injuries',
          kind: 'long_text',
          label: 'Injuries or conditions we should know about',
          help: 'Leave empty if none',
          maxLength: 1000,
        },
        {
          id: 'fitnessLevel',
          kind: 'single_choice',
          label: 'How active are you today?',
          required: true,
          options: [
            { value: 'beginner', label: 'Rarely active' },
            { value: 'intermediate', label: 'Active once or twice a week' },
            { value: 'advanced', label: 'Active three times a week or more' },
          ],
        },
        {
          id: 'goals',
          kind: 'multiple_choice',
          label: 'Your goals',
          help: 'Choose up to 3',
          maxSelected: 3,
          options: [
            { value: 'weight', label: 'Lose weight' },
            { value: 'strength', label: 'Build strength' },
            { value: 'endurance', label: 'Improve endurance' },
            { value: 'flexibility', label: 'Improve flexibility' },
          ],
        },
      ],
    },
    {
      id: 'agreement',
      title: 'Identity and agreement',
      fields: [
        {
          id: 'idDocument',
          kind: 'file',
          label: 'Photo or scan of your ID',
          help: 'National ID card, driver’s licence, voter’s card or international passport',
          required: true,
          accept: ['image/jpeg', 'image/png', 'application/pdf'],
          maxBytes: 5 * 1024 * 1024,
        },
        {
          id: 'waiver',
          kind: 'agreement',
          label:
            'I confirm my answers are true, and I agree to the {{clubName}} membership rules and liability waiver.',
          required: true,
          mustAgree: true,
        },
      ],
    },
  ],
});
