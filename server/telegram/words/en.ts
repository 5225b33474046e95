import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** English: every user whose language AXIOM does not speak reads it. */
export const en: TelegramWords = {
  notices: {
    bond_paid: (p) => `Your payment arrived: bond #${p.number ?? p.mint_id} for ${p.amount} AXIOM is active.`,
    bond_completed: (p) => `Bond #${p.number ?? p.mint_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Sale #${p.sale_id}: ${p.token_amount} AXIOM for ${p.amount_ton} ${COIN} to ${p.address}. It is being paid out.`
        : `Sale #${p.sale_id}: ${p.token_amount} AXIOM for ${p.amount_ton} ${COIN} to ${p.address}.\n` +
          `This address is new to your account (not your wallet connected with TON Connect), so the sale waits until ${utcTime(Number(p.release_at))} before it is paid. ` +
          `Not you? Cancel it before then: the tokens come back to your balance.`,
    sale_paid: (p) => `Your sale was paid out: ${p.amount_ton} ${COIN} sent to your wallet.`,
    friend_joined: (p) => `${p.name} joined AXIOM through your link.`,
    farming_used: (p) => `${p.name} used your farming link: a bond of ${p.amount} AXIOM.`,
  },
  cancelSale: 'Cancel this sale',
  openApp: 'Open AXIOM',
  invitation: { title: 'Invite to AXIOM', text: 'Join me on AXIOM: bond, stake and earn AXIOM on TON.', button: 'Open AXIOM' },
}
