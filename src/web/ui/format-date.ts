// Payers are in Nigeria: times read on Lagos's clock wherever the browser is.
const dateTimeFormat = new Intl.DateTimeFormat('en-NG', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  // en-NG alone reads '15:55' in some browsers and '3:55' in others: always '3:55 pm'.
  hour12: true,
  timeZone: 'Africa/Lagos',
});

/** '1 Dec 2026, 9:00 am'. */
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));
