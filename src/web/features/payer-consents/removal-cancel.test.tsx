// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemovalCancel } from './removal-cancel';

// The SMS's cancel link of a passkey removal: refused (used, past due, guessed), it leads the
// payer on to their account instead of leaving them at a button that can only fail again.

const REFUSED = {
  code: 'PASSKEY_REMOVAL_CANCEL_INVALID',
  message: 'This link no longer cancels a removal: it was used, or the removal already happened.',
};

function answerCancel(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the cancel link of a passkey removal', () => {
  it.each([
    ['signed out', false, 'Go to your account'],
    ['signed in', true, 'See your devices'],
  ])(
    'refused, leads a payer %s on to their account, the refusal focused',
    async (_, signedIn, link) => {
      answerCancel(404, { success: false, error: REFUSED });
      render(<RemovalCancel token="tok_used_0123456789" signedIn={signedIn} />);
      fireEvent.click(screen.getByRole('button', { name: 'Cancel removal' }));

      const refusal = await screen.findByRole('alert');
      expect(refusal.textContent).toBe(REFUSED.message);
      await waitFor(() => expect(document.activeElement).toBe(refusal));
      expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(
        '/consents#devices',
      );
      expect(screen.queryByRole('button', { name: 'Cancel removal' })).toBeNull();
    },
  );

  it('takes a malformed token, refused by the request’s checks, as a used link', async () => {
    const malformed = { code: 'VALIDATION_FAILED', message: 'body.token: Too small' };
    answerCancel(400, { success: false, error: malformed });
    render(<RemovalCancel token="short" signedIn={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel removal' }));

    expect((await screen.findByRole('alert')).textContent).toBe(REFUSED.message);
    expect(screen.getByRole('link', { name: 'Go to your account' })).toBeTruthy();
  });

  it('keeps the button after a failure that trying again may mend', async () => {
    const down = {
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please try again in 30 seconds.',
    };
    answerCancel(429, { success: false, error: down });
    render(<RemovalCancel token="tok_live_0123456789" signedIn={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel removal' }));

    expect((await screen.findByRole('alert')).textContent).toBe(down.message);
    expect(screen.getByRole('button', { name: 'Cancel removal' })).toHaveProperty(
      'disabled',
      false,
    );
  });
});
