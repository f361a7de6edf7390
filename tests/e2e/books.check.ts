// The suite's last check (the "books" project of playwright.config.ts, which runs after every
// other test): the books the whole browser suite left behind balance, as `npm run ledger:check`
// proves them. Every card, transfer, saved-account, chip and collection path the browser tests
// walked moved money through the real server; none of it may leave the books unbalanced.
import { expect, test } from '@playwright/test';
import { E2E } from './e2e-env';

test('the books the browser suite left balance, and every paid payment is booked once', async ({
  request,
}) => {
  const response = await request.get(`${E2E.appOrigin}/__e2e/books`);
  expect(response.status()).toBe(200);
  const { transactions, problems } = (await response.json()) as {
    transactions: number;
    problems: string[];
  };
  expect(problems).toEqual([]);
  // The suite paid by card, transfer, saved account and chip: the books saw it.
  expect(transactions).toBeGreaterThan(10);
});
