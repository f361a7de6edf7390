import { useEffect, type ReactNode } from 'react';

/** One screen of the dashboard: its heading names the page's main landmark and the tab. */
export function Screen({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  useEffect(() => {
    document.title = `${title} - Dashboard`;
  }, [title]);
  return (
    <main className={wide ? 'dash-main wide' : 'dash-main'} aria-labelledby="dash-title">
      <h1 id="dash-title">{title}</h1>
      {children}
    </main>
  );
}
