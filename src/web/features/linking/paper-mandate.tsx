import { PAPER_MANDATE_TEXT } from '../../../domain/paper-mandate';
import { Button } from '../../ui/button';

/** The printable form of a paper mandate, in a new tab (GET /mandates/{id}). */
export function PaperMandateFormLink({
  formUrl,
  variant,
}: {
  formUrl: string;
  variant: 'primary' | 'link';
}) {
  return (
    <a className={`button ${variant}`} href={formUrl} target="_blank" rel="noopener">
      {PAPER_MANDATE_TEXT.print}
    </a>
  );
}

/**
 * A paper mandate's success step: what happens next, its form to print, sign and hand to the bank
 * (without it the bank has nothing to approve), and Done. It stays until the payer closes it
 * (src/domain/paper-mandate.ts).
 */
export function PaperMandateSuccess({ formUrl, onDone }: { formUrl: string; onDone(): void }) {
  return (
    <div className="linking-result" role="status">
      <span className="result-mark done" aria-hidden="true">
        ✓
      </span>
      <h2 className="section-title">{PAPER_MANDATE_TEXT.title}</h2>
      {PAPER_MANDATE_TEXT.nextSteps.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <div className="actions">
        <PaperMandateFormLink formUrl={formUrl} variant="primary" />
        <Button variant="secondary" onClick={onDone}>
          {PAPER_MANDATE_TEXT.done}
        </Button>
      </div>
    </div>
  );
}
