import type { ReactNode } from 'react';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';

type TStatusScreenProps = {
  tone: 'danger' | 'success';
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
};

/** A full-card message with an icon, a title and its buttons. */
export function StatusScreen({ tone, title, children, actions }: TStatusScreenProps) {
  return (
    <section className="card-body status-screen" aria-labelledby={SCREEN_TITLE_ID}>
      <span className={`icon ${tone}`} aria-hidden="true">
        {tone === 'success' ? '✓' : '!'}
      </span>
      <h1 id={SCREEN_TITLE_ID}>{title}</h1>
      {children}
      {actions ? <div className="actions row">{actions}</div> : null}
    </section>
  );
}
