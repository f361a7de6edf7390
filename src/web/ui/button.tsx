import type { ButtonHTMLAttributes } from 'react';

type TButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'link';
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
