/**
 * Rows as the backend writes them on the wire (server/http/wire-format.ts), for a test to hand the
 * app's API through a fake transport.
 */

/** One row of `GET /withdraw/history`: a pending sale of 40 tokens; `extra` adds or changes fields. */
export const withdrawHistoryRow = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  from_ref_balance: false,
  token_amount: '40',
  fee: '1.2',
  net_amount: '38.8',
  amount_ton: '1.5',
  address: 'UQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF',
  status: 'pending',
  created_at: 1780000000,
  ...extra,
})
