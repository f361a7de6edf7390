// The package declares the page's words itself (event-types.ts): they must stay the domain's.
import { expectTypeOf, it } from 'vitest';
import type { TConsentStep as TDomainStep } from '../domain/consent-steps';
import type { TEmbedPaymentMethod, TEmbedPaymentStatus } from '../domain/embed-messages';
import type { TConsentStep, TPaymentMethod, TPaymentStatus } from './event-types';

it("declares the consent page's steps, payment methods and statuses as the domain has them", () => {
  expectTypeOf<TConsentStep>().toEqualTypeOf<TDomainStep>();
  expectTypeOf<TPaymentMethod>().toEqualTypeOf<TEmbedPaymentMethod>();
  expectTypeOf<TPaymentStatus>().toEqualTypeOf<TEmbedPaymentStatus>();
});
