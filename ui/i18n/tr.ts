// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Turkish ("siz"; a bond is a tahvil, staking kept as Turkish crypto users say it), the first screens' texts (the other screens' are in a chunk of their own, tr-screens.ts): the two types require every English key. */
export const tr: BootMessages = {
  'mint.paymentSeen': 'Ödeme görüldü',
  'app.name': 'AXIOM',
  'common.loading': 'Yükleniyor…',
  'common.close': 'Kapat',
  'common.cancel': 'İptal',
  'common.notFound': 'Bu sayfa yok',
  'common.toDashboard': 'Ana sayfaya git',

  'nav.label': 'Ana gezinme',
  'nav.bond': 'AXIOM Tahvil',
  'nav.staking': 'Staking',
  'nav.dashboard': 'Ana sayfa',
  'nav.referral': 'Referans',
  'nav.tasks': 'Görevler',
  'nav.invite': 'Arkadaş davet et',
  'nav.copyLink': 'Referans bağlantısını kopyala',
  'toast.region': 'Bildirimler',
  'toast.dismiss': 'Kapat',

  'loader.label': 'AXIOM yükleniyor',
  'maintenance.title': 'Bakımdayız',
  'maintenance.body': 'Daha sonra tekrar gelin',
  'failed.title': 'Bir şeyler ters gitti',
  'failed.body': 'AXIOM yüklenemedi. Bağlantınızı kontrol edip tekrar deneyin.',
  'failed.retry': 'Tekrar dene',
  'outside.title': 'AXIOM’u Telegram’da açın',
  'outside.body': 'AXIOM bir Telegram mini uygulamasıdır. Bota yönlendiriliyorsunuz…',
  'outside.open': 'Botu aç',
  'manifest.opening': 'Manifest açılıyor…',

  'community.title': 'AXIOM’u kullanmak için topluluğa katılın',
  'community.join': 'Topluluğa katıl',
  'community.done': 'Tamam',

  'balance.main': 'Ana bakiye',
  'balance.referral': 'Referans bakiyesi',
  'balance.task': 'Görev bakiyesi',
  'dashboard.earnedToday': 'Bugün kazanılan',
  'dashboard.price': 'AXIOM fiyatı',
  'dashboard.change24h': '24s',
  'dashboard.change30d': '30g',
  'dashboard.chart': 'Fiyat grafiği',
  'dashboard.interval': 'Grafik aralığı',
  'dashboard.chartEmpty': 'Henüz fiyat verisi yok',
  'dashboard.chartCredit': 'Grafik: TradingView',
  'dashboard.history': 'Geçmiş',
  'dashboard.rebond': 'Yeniden tahvil',
  'dashboard.sell': 'Sat',
  'dashboard.interval.5m': '5dk',
  'dashboard.interval.30m': '30dk',
  'dashboard.interval.1h': '1s',
  'dashboard.interval.4h': '4s',
  'dashboard.interval.1d': '1g',

  // Cihazda saklanan ve girişten önce gösterilen son pano, yaşıyla.
  'dashboard.kept.s': '{n} sn önce güncellendi',
  'dashboard.kept.min': '{n} dk önce güncellendi',
  'dashboard.kept.h': '{n} sa önce güncellendi',
  'dashboard.kept.d': '{n} gün önce güncellendi',

  'wallet.label': 'Cüzdan {address}',
  'wallet.disconnectTitle': 'Cüzdan bağlantısı kesilsin mi?',
  'wallet.disconnectBody': '{address} cüzdanının bağlantısı kesilecek. İstediğiniz zaman yeniden bağlayabilirsiniz.',
  'wallet.disconnect': 'Bağlantıyı kes',

  'community.about': 'AXIOM topluluğu Telegram grubumuzdur: haberler, yeni tahvil koşulları ve ekipten yanıtlar.',
  'community.why': 'AXIOM üyeleri içindir: katılarak uygulamaya gerçek bir kişi olduğunuzu gösterirsiniz, üstelik ücretsiz.',
  'community.next': 'Katıldınız mı? Devam etmek için Tamam’a dokunun.',
  'dashboard.welcomePart': 'Bunun {amount} AXIOM’u hoş geldin tokeni: yalnızca tahviller için, satılamaz.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Turkish for the §8 errors; a server's own message keeps its words. The rest read in English. */
const TR_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Hata: ${e.msg}`,
  RequestRejected: (e) => `Hata: ${e.msg}`,
  InvalidInput: (e) => `Hata: ${e.msg}`,
  UnderMaintenance: () => 'Hata: bakım çalışması sürüyor',
  TooManyRequests: (e) => `Hata: ${e.msg}`,
  PayloadTooLarge: () => 'Hata: dosya çok büyük! Daha küçük bir dosya yükleyin.',
  NetworkError: () => 'Hata: ağ hatası! Kod: ERR_NETWORK',
  Timeout: () => 'Hata: zaman aşımı!',
  MalformedResponse: () => 'Hata: sunucudan beklenmeyen yanıt',
  WalletNotConnected: () => 'Cüzdan bağlanmadı',
  WalletConnectionDeclined: () => 'Cüzdan bağlanmadı',
  TransactionNotSent: () => 'İşlem gönderilmedi',
  WalletNotConnectedToDisconnect: () => 'Cüzdan bağlı değil',
  WalletRestoreFailed: () => 'Bağlantı geri yüklenemedi',
  WalletBoundElsewhere: () => 'Bu cüzdan başka bir AXIOM hesabına bağlı, bu yüzden bağlantısı kesildi. Kendi cüzdanınızı bağlayın.',
  WalletNotVerified: () => 'Cüzdan size ait olduğunu kanıtlayamadı, bu yüzden bağlantısı kesildi. Yeniden bağlayın.',
  OutsidePlatform: () => 'AXIOM’u Telegram içinde açın',
}

const trError = (e: AppError): string => (TR_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Turkish notices (toasts). */
export const trNotices: NoticeTable = {
  error: (n) => trError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Farming ile yeni tahvil oluşturuldu' : 'Yeni tahvil oluşturuldu'),
  stakeCreated: () => 'Yeni stake oluşturuldu',
  transactionProcessing: () => 'İşlem gerçekleştiriliyor',
  sold: () => 'Satış oluşturuldu',
  transferred: () => 'Ana bakiyeye aktarıldı',
  copied: (n) => (n.what === 'referralLink' ? 'Referans bağlantısı kopyalandı' : 'Panoya kopyalandı'),
  copyFailed: () => 'Kopyalanamadı. Metni seçip elle kopyalayın.',
}
