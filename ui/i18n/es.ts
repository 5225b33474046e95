// Not through core/index.ts, like en.ts: a catalogue must not wait for the core's chunk.
import { userMessage } from '../../core/error-messages.ts'
import type { AppError } from '../../core/errors.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { BootMessages } from './en.ts'

/** Spanish, for every Spanish language_code (neutral Latin American, "tú"), the first screens' texts (the other screens' are in a chunk of their own, es-screens.ts): the two types require every English key. */
export const es: BootMessages = {
  'mint.paymentSeen': 'Pago detectado',
  'app.name': 'AXIOM',
  'common.loading': 'Cargando…',
  'common.close': 'Cerrar',
  'common.cancel': 'Cancelar',
  'common.notFound': 'Esta página no existe',
  'common.toDashboard': 'Ir al inicio',

  'nav.label': 'Navegación principal',
  'nav.bond': 'Bono AXIOM',
  'nav.staking': 'Staking',
  'nav.dashboard': 'Inicio',
  'nav.referral': 'Referidos',
  'nav.tasks': 'Tareas',
  'nav.invite': 'Invitar amigos',
  'nav.copyLink': 'Copiar enlace de referido',
  'toast.region': 'Notificaciones',
  'toast.dismiss': 'Descartar',

  'loader.label': 'Cargando AXIOM',
  'maintenance.title': 'Estamos en mantenimiento',
  'maintenance.body': 'Vuelve más tarde',
  'failed.title': 'Algo salió mal',
  'failed.body': 'AXIOM no pudo cargarse. Revisa tu conexión e inténtalo de nuevo.',
  'failed.retry': 'Reintentar',
  'outside.title': 'Abre AXIOM en Telegram',
  'outside.body': 'AXIOM es una mini app de Telegram. Te llevamos al bot…',
  'outside.open': 'Abrir el bot',
  'manifest.opening': 'Abriendo el manifiesto…',

  'community.title': 'Únete a la comunidad para usar AXIOM',
  'community.join': 'Unirme a la comunidad',
  'community.done': 'Listo',

  'balance.main': 'Saldo principal',
  'balance.referral': 'Saldo de referidos',
  'balance.task': 'Saldo de tareas',
  'dashboard.earnedToday': 'Ganado hoy',
  'dashboard.price': 'Precio de AXIOM',
  'dashboard.change24h': '24 h',
  'dashboard.change30d': '30 d',
  'dashboard.chart': 'Gráfico de precio',
  'dashboard.interval': 'Intervalo del gráfico',
  'dashboard.chartEmpty': 'Aún no hay datos de precio',
  'dashboard.chartCredit': 'Gráfico de TradingView',
  'dashboard.history': 'Historial',
  'dashboard.rebond': 'Rebonding',
  'dashboard.sell': 'Vender',
  'dashboard.interval.5m': '5m',
  'dashboard.interval.30m': '30m',
  'dashboard.interval.1h': '1h',
  'dashboard.interval.4h': '4h',
  'dashboard.interval.1d': '1d',

  // El último panel, guardado en el dispositivo y mostrado antes de iniciar sesión, con su antigüedad.
  'dashboard.kept.s': 'Actualizado hace {n} s',
  'dashboard.kept.min': 'Actualizado hace {n} min',
  'dashboard.kept.h': 'Actualizado hace {n} h',
  'dashboard.kept.d': 'Actualizado hace {n} d',

  'wallet.label': 'Wallet {address}',
  'wallet.disconnectTitle': '¿Desconectar la wallet?',
  'wallet.disconnectBody': 'La wallet {address} se desconectará. Puedes volver a conectarla cuando quieras.',
  'wallet.disconnect': 'Desconectar',

  'community.about': 'La comunidad AXIOM es nuestro grupo de Telegram: noticias, nuevas condiciones de bonos y respuestas del equipo.',
  'community.why': 'AXIOM es para sus miembros: al unirte, la app sabe que eres una persona real, y es gratis.',
  'community.next': '¿Ya te uniste? Toca Listo para continuar.',
  'dashboard.welcomePart': 'De esto, {amount} AXIOM son tokens de bienvenida: solo para bonos, no se pueden vender.',
  'dashboard.earnedTodayAmount': '+{amount} AXIOM',
}

type ErrorWords = { readonly [K in AppError['_tag']]?: (e: Extract<AppError, { _tag: K }>) => string }

/** Spanish for the §8 errors; a server's own message keeps its words. The rest read in English. */
const ES_ERRORS: ErrorWords = {
  ServerFailed: (e) => `Error: ${e.msg}`,
  RequestRejected: (e) => `Error: ${e.msg}`,
  InvalidInput: (e) => `Error: ${e.msg}`,
  UnderMaintenance: () => 'Error: estamos en mantenimiento',
  TooManyRequests: (e) => `Error: ${e.msg}`,
  PayloadTooLarge: () => 'Error: ¡el archivo es demasiado grande! Sube uno más pequeño.',
  NetworkError: () => 'Error: ¡sin conexión a la red! Código: ERR_NETWORK',
  Timeout: () => 'Error: ¡se agotó el tiempo de espera!',
  MalformedResponse: () => 'Error: respuesta inesperada del servidor',
  WalletNotConnected: () => 'La wallet no se conectó',
  WalletConnectionDeclined: () => 'La wallet no se conectó',
  TransactionNotSent: () => 'La transacción no se envió',
  WalletNotConnectedToDisconnect: () => 'La wallet no está conectada',
  WalletRestoreFailed: () => 'No se restauró la conexión',
  WalletBoundElsewhere: () => 'Esta wallet está vinculada a otra cuenta de AXIOM, así que se desconectó. Conecta una wallet propia.',
  WalletNotVerified: () => 'La wallet no pudo demostrar que es tuya, así que se desconectó. Vuelve a conectarla.',
  OutsidePlatform: () => 'Abre AXIOM dentro de Telegram',
}

const esError = (e: AppError): string => (ES_ERRORS[e._tag] as ((e: AppError) => string) | undefined)?.(e) ?? userMessage(e)

/** Spanish notices (toasts). */
export const esNotices: NoticeTable = {
  error: (n) => esError(n.error),
  bondCreated: (n) => (n.viaFarming ? 'Nuevo bono creado con farming' : 'Nuevo bono creado'),
  stakeCreated: () => 'Nuevo stake creado',
  transactionProcessing: () => 'La transacción se está procesando',
  sold: () => 'Venta creada',
  transferred: () => 'Transferido al saldo principal',
  copied: (n) => (n.what === 'referralLink' ? 'Enlace de referido copiado' : 'Copiado al portapapeles'),
  copyFailed: () => 'No se pudo copiar. Selecciona el texto y cópialo a mano.',
}
