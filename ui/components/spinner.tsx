export function Spinner({ size = 18, label }: { readonly size?: number; readonly label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  )
}

/** A grey placeholder bar while data loads. */
export function Skeleton({ width = '100%', height = 16 }: { readonly width?: number | string; readonly height?: number }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden="true" />
}
