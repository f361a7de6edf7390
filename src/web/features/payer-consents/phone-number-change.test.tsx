// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhoneNumberChange } from './phone-number-change';

// 'Your sign-in number' on /consents: the code step asks the server for a new code as the
// sign-in code step does, and shows the server's words when it refuses.

const CODE_SENT = {
  success: true,
  phoneNumber: '+2348031234567',
  expiresAt: '2031-05-04T09:05:00.000Z',
  message: 'We sent a 6-digit code to 0803 123 4567',
};
const TOO_MANY = {
  success: false,
  error: {
    code: 'PHONE_CODE_RATE_LIMITED',
    message: 'Too many codes for this number. Please try again in 30 minutes.',
  },
};

/** The server's answers to POST /api/identity/phone-number, in order; the calls' bodies. */
function answerCodeRequests(...answers: Array<{ status: number; body: unknown }>) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const answer = answers.shift();
      if (url !== '/api/identity/phone-number' || !answer) throw new Error(`unexpected ${url}`);
      bodies.push(JSON.parse(init?.body as string));
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return bodies;
}

async function atCodeStep() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PhoneNumberChange />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Change number' }));
  fireEvent.change(screen.getByLabelText('New phone number'), {
    target: { value: '0803 123 4567' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
  expect(await screen.findByRole('status')).toHaveProperty('textContent', CODE_SENT.message);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-in number’s code step', () => {
  it('sends a new code to the same number, with the code field emptied and focused', async () => {
    const bodies = answerCodeRequests(
      { status: 200, body: CODE_SENT },
      { status: 200, body: CODE_SENT },
    );
    await atCodeStep();
    const field = screen.getByLabelText<HTMLInputElement>('6-digit code');
    fireEvent.change(field, { target: { value: '12' } });

    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ phone: '0803 123 4567' });
    await waitFor(() => expect(field.value).toBe(''));
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByRole('button', { name: 'Send a new code' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the server’s refusal of a new code, and keeps the code step', async () => {
    answerCodeRequests({ status: 200, body: CODE_SENT }, { status: 429, body: TOO_MANY });
    await atCodeStep();

    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toBe(TOO_MANY.error.message);
    const field = screen.getByLabelText('6-digit code');
    expect(field.getAttribute('aria-describedby')).toBe(refusal.id);
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByRole('button', { name: 'Change number' })).toHaveProperty('disabled', false);
  });
});
