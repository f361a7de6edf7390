import { preloadable } from '../../ui/preloadable';

/**
 * Pay with Card's steps, with the lines said while its bank answers: their own chunk, loaded
 * once the payer chose 'Pay with Card' (or Retry Payment sent the card again), beside the card's
 * views (pay-now-views.ts), which the steps draw.
 */
export const CardSteps = preloadable(() =>
  import('./pay-now-card-steps').then((module) => module.CardSteps),
);
