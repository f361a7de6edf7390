const dateFormat = new Intl.DateTimeFormat('en-NG', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-NG', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** '1 Dec 2026'. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
/** '1 Dec 2026, 9:00 am'. */
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));
