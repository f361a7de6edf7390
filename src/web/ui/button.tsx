import type { ButtonHTMLAttributes, Ref } from 'react';

type TButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'link';
  /** Where a screen puts the focus back (a dialog closed over it). */
  ref?: Ref<HTMLButtonElement>;
};

export function Button({ variant = 'primary', className, type = 'button', ...rest }: TButtonProps) {
  return (
    <button
      type={type}
      className={['button', variant, className].filter(Boolean).join(' ')}
      {...rest}
    />
  );
}
