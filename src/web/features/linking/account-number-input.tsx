import { sanitizeAccountNumberInput } from '../../../domain/account-number';
import { ACCOUNT_NUMBER_LENGTH } from '../../../domain/constants';

type TAccountNumberInputProps = {
  id: string;
  value: string;
  /** The digits typed, anything else dropped (spec §5). */
  onChange(accountNumber: string): void;
  /** The ids of the hint and the error that describe the field, when shown. */
  describedBy: readonly string[];
  invalid: boolean;
  autoFocus?: boolean;
};

/** The 10-digit account number field of manual entry and of 'Save Your Card' (spec §2, §5). */
export function AccountNumberInput({
  id,
  value,
  onChange,
  describedBy,
  invalid,
  autoFocus = false,
}: TAccountNumberInputProps) {
  return (
    <>
      <label htmlFor={id}>Account number</label>
      <input
        id={id}
        className="text-input"
        inputMode="numeric"
        autoComplete="off"
        maxLength={ACCOUNT_NUMBER_LENGTH}
        placeholder="10-digit account number"
        value={value}
        onChange={(event) => onChange(sanitizeAccountNumberInput(event.target.value))}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
        autoFocus={autoFocus}
      />
    </>
  );
}
