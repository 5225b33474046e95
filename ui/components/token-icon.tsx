import { useId } from 'react'

/** The AXIOM token mark: a blue coin with an upward "A" (inline SVG, no request). */
export function TokenIcon({ size = 40, className }: { readonly size?: number; readonly className?: string }) {
  const id = useId()
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={`${id}-g`} x1="8" y1="4" x2="56" y2="60" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#5ab8ff" />
          <stop offset="1" stopColor="#1a6fe0" />
        </linearGradient>
      </defs>
      <circle cx="32" cy="32" r="30" fill={`url(#${id}-g)`} />
      <circle cx="32" cy="32" r="25.5" fill="none" stroke="#fff" strokeOpacity="0.28" strokeWidth="1.5" />
      <path d="M32 14 47 46h-7.2L32 28.6 24.2 46H17L32 14Z" fill="#fff" />
      <path d="M26.5 39.5h11" stroke="#fff" strokeWidth="3.4" strokeLinecap="round" />
    </svg>
  )
}
