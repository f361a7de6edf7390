import { useEffect, useState } from 'react';
import { COPIED_TEXT, COPY_FEEDBACK_MS } from '../../domain/constants';
import './copy-row.css';

/** A value with its copy button: 'Copied!' for 2 s (spec §2), announced to screen readers. */
export function CopyRow({ label, value, shown }: { label: string; value: string; shown?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd>
        <span className="detail-value">{shown ?? value}</span>
        <button
          type="button"
          className="copy-button"
          aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => undefined,
            );
          }}
        >
          {copied ? COPIED_TEXT : 'Copy'}
        </button>
        <span className="visually-hidden" role="status">
          {copied ? COPIED_TEXT : ''}
        </span>
      </dd>
    </div>
  );
}

/** A value without a copy button, in the same list (spec §2 transfer details: name, bank). */
export function DetailRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd>
        <span className="detail-value">{value}</span>
      </dd>
    </div>
  );
}
