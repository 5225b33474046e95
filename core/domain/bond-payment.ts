/**
 * The comment of a bond's TON payment (spec §7, /mint/create's `payment.comment`): the backend
 * hands it out, the wallet sends it, and the chain watcher matches a payment to its bond by it.
 */
export const bondPaymentComment = (mintId: bigint | number | string): string => `axiom:mint:${mintId}`

/** A bond payment comment; group 1 is the bond's id. */
export const BOND_PAYMENT_COMMENT = /^axiom:mint:(\d{1,18})$/
