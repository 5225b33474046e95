import { COIN } from '../../../core/domain/constants.ts'
import { type TelegramWords, utcTime } from './words.ts'

/** Indonesian. */
export const id: TelegramWords = {
  notices: {
    bond_paid: (p) => `Pembayaran Anda masuk: bond #${p.number ?? p.mint_id} senilai ${p.amount} AXIOM sudah aktif.`,
    bond_completed: (p) => `Bond #${p.number ?? p.mint_id} selesai: ${p.amount} AXIOM beserta hadiahnya sudah di saldo Anda.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} selesai: ${p.amount} AXIOM beserta hadiahnya sudah di saldo Anda.`,
    sale_created: (p) =>
      p.release_at === undefined
        ? `Penjualan #${p.sale_id}: ${p.token_amount} AXIOM seharga ${p.amount_ton} ${COIN} ke ${p.address}. Sedang dibayarkan.`
        : `Penjualan #${p.sale_id}: ${p.token_amount} AXIOM seharga ${p.amount_ton} ${COIN} ke ${p.address}.\n` +
          `Alamat ini baru untuk akun Anda (bukan wallet yang terhubung lewat TON Connect), jadi penjualan menunggu hingga ${utcTime(Number(p.release_at))} sebelum dibayar. ` +
          `Bukan Anda? Batalkan sebelum waktu itu: token kembali ke saldo Anda.`,
    sale_paid: (p) => `Penjualan Anda sudah dibayar: ${p.amount_ton} ${COIN} dikirim ke wallet Anda.`,
    friend_joined: (p) => `${p.name} bergabung dengan AXIOM lewat link Anda.`,
    farming_used: (p) => `${p.name} memakai link farming Anda: bond senilai ${p.amount} AXIOM.`,
  },
  cancelSale: 'Batalkan penjualan ini',
  openApp: 'Buka AXIOM',
  invitation: { title: 'Undangan ke AXIOM', text: 'Gabung AXIOM bersama saya: bond, staking, dan hadiah AXIOM di TON.', button: 'Buka AXIOM' },
}
