import type { Words } from './words.ts'

/** The bot in Indonesian. */
export const id: Words = {
  start: 'Selamat datang di AXIOM: bond, staking, dan hadiah AXIOM di TON. Buka aplikasinya untuk mulai.',
  startWithParam: 'Selamat datang di AXIOM! Anda diundang: buka aplikasinya untuk bergabung.',
  open: 'Buka AXIOM',
  menu: 'AXIOM',
  help: 'Perintah:\n/start – buka aplikasi AXIOM\n/balance – saldo Anda\n/bonds – bond dan stake Anda\n/notifications on|off – pesan tentang bond, penjualan, dan teman Anda\n/help – daftar ini',
  balance: (b) => `Saldo Anda\nSaldo utama: ${b.token} AXIOM\nSaldo tugas: ${b.task} AXIOM\nSaldo referral: ${b.referral} AXIOM`,
  noRecords: 'Belum ada bond atau stake. Buka aplikasinya untuk membeli bond.',
  bond: 'Bond',
  stake: 'Stake',
  reward: 'hadiah',
  notificationsOn: 'Notifikasi aktif.',
  notificationsOff: 'Notifikasi nonaktif.',
  notificationsUsage: 'Gunakan /notifications on atau /notifications off.',
  unavailable: 'AXIOM sedang tidak bisa dijangkau. Coba lagi sebentar lagi.',
  saleCancelled: (s) =>
    `Penjualan #${s.id} ke ${s.address} dibatalkan: tidak ada yang dikirim, dan ${s.token_amount} AXIOM kembali ke saldo ${s.from_ref_balance ? 'referral' : 'utama'} Anda.`,
  saleCancelledShort: 'Penjualan dibatalkan: token Anda kembali.',
  saleAlreadyCancelled: 'Penjualan ini sudah dibatalkan.',
  saleNotWaiting: 'Penjualan ini tidak bisa dibatalkan lagi: masa tunggunya sudah lewat dan sedang dibayar.',
  saleNotYours: 'Ini bukan penjualan Anda.',
  commands: { start: 'Buka aplikasi AXIOM', balance: 'Saldo Anda', bonds: 'Bond dan stake Anda', notifications: 'Notifikasi aktif/nonaktif', help: 'Apa yang bisa dilakukan bot' },
}
