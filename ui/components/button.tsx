import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { Spinner } from './spinner.tsx'

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  readonly variant?: 'primary' | 'secondary' | 'danger' | 'ghost'
  readonly size?: 'md' | 'sm'
  readonly busy?: boolean
  readonly block?: boolean
  readonly icon?: ReactNode
  readonly testId?: string
}

/** A button with a busy state: disabled and a spinner while its action runs. */
export function Button({ variant = 'primary', size = 'md', busy = false, block = false, icon, testId, className, disabled, children, type, ...rest }: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, `btn--${size}`, block ? 'btn--block' : '', className ?? ''].filter(Boolean).join(' ')
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      data-testid={testId}
      {...rest}
    >
      {busy ? <Spinner size={16} /> : icon}
      {children ? <span>{children}</span> : null}
    </button>
  )
}
