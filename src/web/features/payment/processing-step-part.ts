import { preloadable } from '../../ui/preloadable';

/**
 * The payment's progress once the payer chose how to pay (its circle, its steps, what failed and
 * what to do next): its own chunk, which the first screen, the list of ways to pay, does not
 * need. The screen asks for it as soon as it is usable, so it is here by the time a way is chosen.
 */
export const ProcessingStep = preloadable(() =>
  import('./pay-now-processing-step').then((module) => module.ProcessingStep),
);
