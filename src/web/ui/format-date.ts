import { formatLagosDateTime } from '../../domain/payment-date';

/** '1 Dec 2026, 9:00 am': payers are in Nigeria, so times read on Lagos's clock everywhere. */
export const formatDateTime = (iso: string) => formatLagosDateTime(iso);
