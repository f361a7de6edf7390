import {
  BANK_MANDATE_TEXT,
  PAPER_MANDATE_TEXT,
  type TMandateForm,
} from '../../../domain/paper-mandate';
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
 * A paper or bank mandate's success step: what happens next, its form to print, sign and hand to
 * the bank (without it the bank has nothing to approve) or the bank's page to approve it at, and
 * Done. It stays until the payer closes it (src/domain/paper-mandate.ts).
 */
export function MandateFormSuccess({ form, onDone }: { form: TMandateForm; onDone(): void }) {
  const text = form.type === 'paper' ? PAPER_MANDATE_TEXT : BANK_MANDATE_TEXT;
  return (
    <div className="linking-result" role="status">
      <span className="result-mark done" aria-hidden="true">
        ✓
      </span>
      <h2 className="section-title">{text.title}</h2>
      {text.nextSteps.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <div className="actions">
        {form.type === 'paper' ? (
          <PaperMandateFormLink formUrl={form.url} variant="primary" />
        ) : (
          <a className="button primary" href={form.url} target="_blank" rel="noopener">
            {BANK_MANDATE_TEXT.open}
          </a>
        )}
        <Button variant="secondary" onClick={onDone}>
          {text.done}
        </Button>
      </div>
    </div>
  );
}
