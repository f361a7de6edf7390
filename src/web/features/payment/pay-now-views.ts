import { preloadable } from '../../ui/preloadable';

// The step's first screen is the amount and the methods (or, paid, the processing view and the
// prompt after it), whose code the consent page loads before it takes the screen over
// (vite.config.ts FIRST_SCREEN_MODULES): what a method opens loads when the payer chooses it. The
// card's views come together: the OTP and 3-D Secure steps follow the form's answer.
export const TransferDetailsView = preloadable(() =>
  import('./transfer-details-view').then((module) => module.TransferDetailsView),
);

export const CardFormView = preloadable(() =>
  import('../../ui/card/card-form-view').then((module) => module.CardFormView),
);
export const AskedPinView = preloadable(() =>
  import('../../ui/card/card-pin-step').then((module) => module.AskedPinView),
);
export const OtpView = preloadable(() =>
  import('../../ui/card/card-step-views').then((module) => module.OtpView),
);
export const ThreeDsView = preloadable(() =>
  import('../../ui/card/card-step-views').then((module) => module.ThreeDsView),
);

// What follows a payment (save the card, link the account): only after it is made.
export const AfterPaymentPrompt = preloadable(() =>
  import('./after-payment-prompt').then((module) => module.AfterPaymentPrompt),
);

/** Loads the card's views together, for 'Pay with Card' to open them at once. */
export const loadCardViews = () =>
  Promise.all([
    CardFormView.preload(),
    AskedPinView.preload(),
    OtpView.preload(),
    ThreeDsView.preload(),
  ]);
