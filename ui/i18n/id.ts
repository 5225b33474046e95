// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Indonesian ("Anda"; bond, staking and stake kept as Indonesian crypto users say them), the first screens' texts (the other screens' are in a chunk of their own, id-screens.ts): the two types require every English key. */
export const id: BootMessages = {
  'mint.paymentSeen': 'Pembayaran terdeteksi',
  'app.name': 'AXIOM',
  'common.loading': 'Memuat…',
  'common.close': 'Tutup',
  'common.cancel': 'Batal',
  'common.notFound': 'Halaman ini tidak ada',
  'common.toDashboard': 'Ke beranda',

  'nav.label': 'Navigasi utama',
  'nav.bond': 'Bond AXIOM',
  'nav.staking': 'Staking',
  'nav.dashboard': 'Beranda',
  'nav.referral': 'Referral',
  'nav.tasks': 'Tugas',
  'nav.invite': 'Undang Teman',
  'nav.copyLink': 'Salin link referral',
  'toast.region': 'Notifikasi',
  'toast.dismiss': 'Tutup',

  'loader.label': 'Memuat AXIOM',
  'maintenance.title': 'Sedang dalam pemeliharaan',
  'maintenance.body': 'Silakan kembali nanti',
  'failed.title': 'Terjadi kesalahan',
  'failed.body': 'AXIOM gagal dimuat. Periksa koneksi Anda dan coba lagi.',
  'failed.retry': 'Coba lagi',
  'outside.title': 'Buka AXIOM di Telegram',
  'outside.body': 'AXIOM adalah mini app Telegram. Mengarahkan Anda ke bot…',
  'outside.open': 'Buka bot',
  'manifest.opening': 'Membuka manifest…',

  'community.title': 'Gabung komunitas untuk memakai AXIOM',
  'community.join': 'Gabung komunitas',
  'community.done': 'Selesai',

  'balance.main': 'Saldo utama',
  'balance.referral': 'Saldo referral',
  'balance.task': 'Saldo tugas',
  'dashboard.earnedToday': 'Pendapatan hari ini',
  'dashboard.price': 'Harga AXIOM',
  'dashboard.change24h': '24j',
  'dashboard.change30d': '30h',
  'dashboard.chart': 'Grafik harga',
  'dashboard.interval': 'Interval grafik',
  'dashboard.chartEmpty': 'Belum ada data harga',
  'dashboard.chartCredit': 'Grafik oleh TradingView',
  'dashboard.history': 'Riwayat',
  'dashboard.rebond': 'Re-bonding',
  'dashboard.sell': 'Jual',
  'dashboard.interval.5m': '5m',
  'dashboard.interval.30m': '30m',
  'dashboard.interval.1h': '1j',
  'dashboard.interval.4h': '4j',
  'dashboard.interval.1d': '1h',

  // Dasbor terakhir, disimpan di perangkat dan ditampilkan sebelum masuk, dengan usianya.
  'dashboard.kept.s': 'Diperbarui {n} dtk lalu',
  'dashboard.kept.min': 'Diperbarui {n} mnt lalu',
  'dashboard.kept.h': 'Diperbarui {n} jam lalu',
  'dashboard.kept.d': 'Diperbarui {n} hr lalu',

  'wallet.label': 'Wallet {address}',
  'wallet.disconnectTitle': 'Putuskan wallet?',
  'wallet.disconnectBody': 'Wallet {address} akan diputuskan. Anda bisa menghubungkannya lagi kapan saja.',
  'wallet.disconnect': 'Putuskan',

  'community.about': 'Komunitas AXIOM adalah grup Telegram kami: berita, ketentuan bond baru, dan jawaban dari tim.',
  'community.why': 'AXIOM untuk para anggotanya: dengan bergabung, aplikasi tahu Anda orang sungguhan, dan gratis.',
  'community.next': 'Sudah bergabung? Ketuk Selesai untuk lanjut.',
  'dashboard.welcomePart': 'Dari jumlah ini, {amount} AXIOM adalah token sambutan: hanya untuk bond, tidak bisa dijual.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Indonesian for the §8 errors; a server's own message keeps its words. The rest read in English. */
const ID_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Kesalahan: ${e.msg}`,
  RequestRejected: (e) => `Kesalahan: ${e.msg}`,
  InvalidInput: (e) => `Kesalahan: ${e.msg}`,
  UnderMaintenance: () => 'Kesalahan: sedang dalam pemeliharaan',
  TooManyRequests: (e) => `Kesalahan: ${e.msg}`,
  PayloadTooLarge: () => 'Kesalahan: ukuran file terlalu besar! Unggah file yang lebih kecil.',
  NetworkError: () => 'Kesalahan: jaringan bermasalah! Kode: ERR_NETWORK',
  Timeout: () => 'Kesalahan: waktu habis!',
  MalformedResponse: () => 'Kesalahan: jawaban server tidak terduga',
  WalletNotConnected: () => 'Wallet tidak terhubung',
  WalletConnectionDeclined: () => 'Wallet tidak terhubung',
  TransactionNotSent: () => 'Transaksi tidak terkirim',
  WalletNotConnectedToDisconnect: () => 'Wallet belum terhubung',
  WalletRestoreFailed: () => 'Koneksi tidak dipulihkan',
  WalletBoundElsewhere: () => 'Wallet ini tertaut ke akun AXIOM lain, jadi diputuskan. Hubungkan wallet milik Anda sendiri.',
  WalletNotVerified: () => 'Wallet tidak bisa membuktikan bahwa itu milik Anda, jadi diputuskan. Hubungkan lagi.',
  OutsidePlatform: () => 'Buka AXIOM di dalam Telegram',
}

const idError = (e: AppError): string => (ID_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Indonesian notices (toasts). */
export const idNotices: NoticeTable = {
  error: (n) => idError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Bond baru dibuat lewat farming' : 'Bond baru dibuat'),
  stakeCreated: () => 'Stake baru dibuat',
  transactionProcessing: () => 'Transaksi sedang diproses',
  sold: () => 'Penjualan dibuat',
  transferred: () => 'Dipindahkan ke saldo utama',
  copied: (n) => (n.what === 'referralLink' ? 'Link referral disalin' : 'Disalin ke papan klip'),
  copyFailed: () => 'Gagal menyalin. Pilih teksnya dan salin secara manual.',
}
