import type { Words } from './words.ts'

/** The bot in Turkish. */
export const tr: Words = {
  start: 'AXIOM’a hoş geldiniz: TON üzerinde tahvil, staking ve AXIOM ödülleri. Başlamak için uygulamayı açın.',
  startWithParam: 'AXIOM’a hoş geldiniz! Davet edildiniz: katılmak için uygulamayı açın.',
  open: 'AXIOM’u aç',
  menu: 'AXIOM',
  help: 'Komutlar:\n/start – AXIOM uygulamasını aç\n/balance – bakiyeleriniz\n/bonds – tahvilleriniz ve stake’leriniz\n/notifications on|off – tahvil, satış ve arkadaş mesajları\n/help – bu liste',
  balance: (b) => `Bakiyeleriniz\nAna bakiye: ${b.token} AXIOM\nGörev bakiyesi: ${b.task} AXIOM\nReferans bakiyesi: ${b.referral} AXIOM`,
  noRecords: 'Henüz tahvil veya stake yok. Tahvil almak için uygulamayı açın.',
  bond: 'Tahvil',
  stake: 'Stake',
  reward: 'ödül',
  notificationsOn: 'Bildirimler açık.',
  notificationsOff: 'Bildirimler kapalı.',
  notificationsUsage: '/notifications on veya /notifications off yazın.',
  unavailable: 'AXIOM şu anda erişilemiyor. Bir dakika sonra tekrar deneyin.',
  saleCancelled: (s) =>
    `${s.address} adresine satış #${s.id} iptal edildi: hiçbir şey gönderilmedi, ${s.token_amount} AXIOM ${s.from_ref_balance ? 'referans' : 'ana'} bakiyenize geri döndü.`,
  saleCancelledShort: 'Satış iptal edildi: tokenleriniz geri döndü.',
  saleAlreadyCancelled: 'Bu satış zaten iptal edilmişti.',
  saleNotWaiting: 'Bu satış artık iptal edilemez: bekleme süresi bitti ve ödeniyor.',
  saleNotYours: 'Bu sizin satışınız değil.',
  commands: { start: 'AXIOM uygulamasını aç', balance: 'Bakiyeleriniz', bonds: 'Tahvilleriniz ve stake’leriniz', notifications: 'Bildirimleri aç/kapat', help: 'Bot neler yapabilir' },
}
