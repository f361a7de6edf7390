import type { ReactNode } from 'react';

type TStatusScreenProps = {
  tone: 'danger' | 'success';
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
};

/** A full-card message with an icon, a title and its buttons. */
export function StatusScreen({ tone, title, children, actions }: TStatusScreenProps) {
  return (
    <section className="card-body status-screen" aria-labelledby="status-title">
      <span className={`icon ${tone}`} aria-hidden="true">
        {tone === 'success' ? '✓' : '!'}
      </span>
      <h1 id="status-title">{title}</h1>
      {children}
      {actions ? <div className="actions row">{actions}</div> : null}
    </section>
  );
}
