/** A sale as POST /api/telegram/sale-cancel answers it (docs/api.md), what the message after a cancel names. */
export interface CancelledSale {
  readonly id: number
  readonly token_amount: string
  readonly address: string
  readonly from_ref_balance: boolean
}

/** What the bot says, in each of AXIOM's languages (chosen by the user's language_code; English for any other). */
export interface Words {
  readonly start: string
  readonly startWithParam: string
  readonly open: string
  readonly menu: string
  readonly help: string
  readonly balance: (b: { token: string; task: string; referral: string }) => string
  readonly noRecords: string
  readonly bond: string
  readonly stake: string
  readonly reward: string
  readonly notificationsOn: string
  readonly notificationsOff: string
  readonly notificationsUsage: string
  readonly unavailable: string
  /** The answers to a press of a sale's Cancel button (the bot's message about a sale waiting its cooling period). */
  readonly saleCancelled: (sale: CancelledSale) => string
  readonly saleCancelledShort: string
  readonly saleAlreadyCancelled: string
  readonly saleNotWaiting: string
  readonly saleNotYours: string
  readonly commands: Readonly<Record<'start' | 'balance' | 'bonds' | 'notifications' | 'help', string>>
}
